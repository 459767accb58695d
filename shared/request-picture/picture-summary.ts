import type { RequestPicture } from './picture-schema';
import { visible } from './picture-text';

/**
 * A request's picture in one line, for notifications (desktop, ntfy, SMS, email text): how
 * many files change and by how much, how many commits a push sends and where, which files a
 * command applies, whom a message goes to. Undefined when the picture has none of these.
 */
export function pictureSummary(p: RequestPicture): string | undefined {
  const parts: string[] = [];
  const files = p.files ?? [];
  if (files.length) {
    const added = files.reduce((n, f) => n + f.added, 0);
    const removed = files.reduce((n, f) => n + f.removed, 0);
    const what = files.length === 1 ? files[0]!.path.replace(/^.*\//, '') : `${files.length} files`;
    parts.push(`${what} +${added} −${removed}`);
  }
  const push = p.push;
  if (push) {
    const stat = push.diffstat?.split('\n').at(-1)?.trim();
    parts.push(
      `push ${push.commitCount} commit${push.commitCount === 1 ? '' : 's'} to ${push.remote}/${push.branch ?? '?'}${push.force ? ' (FORCE)' : ''}${stat ? `: ${stat}` : ''}`,
    );
  }
  const applied = p.applied ?? [];
  if (applied.length)
    parts.push(`applies ${applied.map((a) => a.path.replace(/^.*\//, '')).join(', ')}`);
  const m = p.message;
  if (m) {
    const to = m.to?.length
      ? ` to ${m.to.slice(0, 3).join(', ')}${m.to.length > 3 ? ` +${m.to.length - 3}` : ''}`
      : '';
    const place = m.channel ? ` in ${m.channel}` : '';
    parts.push(`${m.kind}${to}${place}${m.subject ? `: "${m.subject}"` : ''}`);
  }
  if (!parts.length) return undefined;
  const line = visible(parts.join('; '));
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** The most diff text an email carries; the dashboard has the rest. */
export const EMAIL_DIFF_CHARS = 20_000;

/**
 * The diffs an email's HTML part shows: each file's diff (already bounded and masked), then
 * the push's diffstat, cut at a line within {@link EMAIL_DIFF_CHARS}, saying so.
 */
export function pictureDiffText(p: RequestPicture, max = EMAIL_DIFF_CHARS): string | undefined {
  const parts: string[] = [];
  for (const f of p.files ?? []) if (f.diff) parts.push(f.diff);
  if (p.push?.diffstat) parts.push(p.push.diffstat);
  if (!parts.length) return undefined;
  const text = parts.join('\n');
  if (text.length <= max) return text;
  const cutAt = text.lastIndexOf('\n', max);
  const kept = text.slice(0, cutAt > 0 ? cutAt : max);
  const missing = text.slice(kept.length).split('\n').length - 1;
  return `${kept}\n… ${missing} more lines on the dashboard`;
}
