import type { RequestPicture } from './picture-schema';

/**
 * A request's picture as plain text lines, for the CLI (and any text surface): the file
 * diffs with `+A −R`, the push with its commits and diffstat, the files a command applies,
 * the message an action sends (labelled as such), the command breakdown, and
 * every note of what was left out. Control characters from the agent's content (a terminal
 * escape could rewrite what the person sees) are shown as visible symbols.
 */
export function pictureLines(p: RequestPicture): string[] {
  const lines: string[] = [];
  for (const f of p.files ?? []) {
    lines.push(
      '',
      `File ${f.kind === 'create' ? '(new) ' : ''}${f.path}  +${f.added} −${f.removed}`,
    );
    if (f.diff) lines.push(...f.diff.split('\n'));
    if (f.omitted) lines.push(`[left out: ${f.omitted}]`);
  }
  const push = p.push;
  if (push) {
    const where = `${push.remote}${push.url ? ` (${push.url})` : ''}`;
    lines.push(
      '',
      `Push ${push.branch ?? '(no branch)'} to ${where}${push.force ? '  FORCE' : ''}`,
      `${push.commitCount} commit${push.commitCount === 1 ? '' : 's'} the remote lacks:`,
    );
    for (const c of push.commits) lines.push(`  ${c.sha.slice(0, 10)} ${c.subject} (${c.author})`);
    if (push.diffstat) lines.push(...push.diffstat.split('\n'));
    if (push.omitted) lines.push(`[left out: ${push.omitted}]`);
  }
  for (const a of p.applied ?? []) {
    lines.push('', `Applies ${a.path}  (${a.by})`);
    if (a.content !== undefined)
      lines.push(
        ...a.content
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `  ${l}`),
      );
    if (a.omitted) lines.push(`[left out: ${a.omitted}]`);
  }
  const m = p.message;
  if (m) {
    lines.push('', `Message (${m.kind}):`);
    if (m.to) lines.push(`  To: ${m.to.join(', ')}`);
    if (m.cc) lines.push(`  Cc: ${m.cc.join(', ')}`);
    if (m.bcc) lines.push(`  Bcc: ${m.bcc.join(', ')}`);
    if (m.channel) lines.push(`  ${m.kind === 'chat' ? 'Channel' : 'On'}: ${m.channel}`);
    if (m.subject !== undefined) lines.push(`  Subject: ${m.subject}`);
    if (m.body !== undefined) lines.push('  Body:', ...m.body.split('\n').map((l) => `    ${l}`));
    if (m.omitted) lines.push(`[left out: ${m.omitted}]`);
  }
  if (p.commands && p.commands.length > 1) {
    lines.push('', 'What the call does:');
    for (const c of p.commands)
      lines.push(
        `  ${c.tier === 'ask' ? 'asks' : 'auto'}  ${c.action}${c.target ? ` → ${c.target}` : ''}${c.paths?.length ? ` ${c.paths.join(', ')}` : ''}  (${c.rule})`,
      );
  }
  for (const o of p.omitted ?? []) lines.push(`[left out: ${o}]`);
  return lines.map(visible);
}

/** C0 controls (but tab), DEL and C1 controls as the Unicode control pictures or `�`. */
export function visible(line: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return line.replace(/[\x00-\x08\x0a-\x1f\x7f-\x9f]/g, (ch) => {
    const code = ch.charCodeAt(0);
    return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
  });
}

/** The full diff of a push (`request.diff`) as text lines, control characters made visible. */
export function fullDiffText(full: {
  diff?: string | undefined;
  omitted?: string | undefined;
}): string {
  const lines = ['', 'Full diff of the push:'];
  if (full.diff !== undefined) lines.push(...full.diff.replace(/\n$/, '').split('\n'));
  if (full.omitted) lines.push(`[left out: ${full.omitted}]`);
  return lines.map(visible).join('\n');
}
