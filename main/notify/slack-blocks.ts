import type { RequestPicture } from '../../shared/request-picture/picture-schema';
import { visible } from '../../shared/request-picture/picture-text';
import { ntfyMessageOf } from './ntfy-channel';
import type { SlackBlock, SlackButton } from './slack-api';
import type { OutgoingNotification } from './types';

/** Block Kit's limits (docs.slack.dev/reference/block-kit): clipped before Slack refuses. */
const HEADER_MAX = 150;
const SECTION_MAX = 3000;
const FIELD_MAX = 2000;
const FALLBACK_MAX = 4000;
/** Commits of a push shown in the message; the rest are counted. */
const COMMITS_SHOWN = 5;

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const plain = (text: string, max = SECTION_MAX) => ({
  type: 'plain_text' as const,
  text: clip(text, max),
});

/**
 * The top-level `text` of a message (notifications and screen readers show it): Slack reads
 * `&`, `<` and `>` as markup (`<!channel>`, `<@U…>`, links), so what an agent wrote is escaped.
 */
export const slackEscape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * What a request's picture adds to its Slack message: the files a call writes with their
 * `+added −removed`, a push's commits and diffstat, and what was left out. No diff bodies (a
 * chat message is a glance; the dashboard and phone page show them).
 */
export function pictureSummary(p: RequestPicture | undefined): string[] {
  if (!p) return [];
  const lines: string[] = [];
  for (const f of p.files ?? [])
    lines.push(`${f.kind === 'create' ? 'new ' : ''}${f.path}  +${f.added} −${f.removed}`);
  const push = p.push;
  if (push) {
    lines.push(
      `Push ${push.branch ?? '(no branch)'} to ${push.remote}${push.force ? ' (FORCE)' : ''}: ${push.commitCount} commit${push.commitCount === 1 ? '' : 's'}`,
    );
    for (const c of push.commits.slice(0, COMMITS_SHOWN))
      lines.push(`  ${c.sha.slice(0, 10)} ${c.subject} (${c.author})`);
    if (push.commitCount > COMMITS_SHOWN)
      lines.push(`  … and ${push.commitCount - COMMITS_SHOWN} more`);
    if (push.diffstat) lines.push(...push.diffstat.split('\n'));
  }
  for (const o of [...(p.omitted ?? []), ...(push?.omitted ? [push.omitted] : [])])
    lines.push(`[left out: ${o}]`);
  return lines.map(visible);
}

/** The block that shows a request's picture (its id tells a message that has one). */
export const PICTURE_BLOCK_ID = 'gatehouse-picture';
const pictureBlock = (lines: string[]): SlackBlock => ({
  type: 'section',
  block_id: PICTURE_BLOCK_ID,
  text: plain(lines.join('\n')),
});

/**
 * A posted message with the picture that was computed after it went out: the picture's
 * section goes before the buttons. Undefined when the message has one already.
 */
export function withPicture(blocks: SlackBlock[], lines: string[]): SlackBlock[] | undefined {
  if (
    lines.length === 0 ||
    blocks.some((b) => b.type === 'section' && b.block_id === PICTURE_BLOCK_ID)
  )
    return undefined;
  const at = blocks.findIndex((b) => b.type === 'actions');
  const i = at === -1 ? blocks.length : at;
  return [...blocks.slice(0, i), pictureBlock(lines), ...blocks.slice(i)];
}

/** A message about one request: what and why, who, the risk, its picture, and its buttons. */
export function requestBlocks(
  n: OutgoingNotification,
  extra: { buttons: SlackButton[]; picture: string[] },
): SlackBlock[] {
  const item = n.items[0]!;
  const fields = [
    ...(item.agent ? [`Agent: ${item.agent}`] : []),
    ...(item.project ? [`Project: ${item.project}`] : []),
    ...(item.risk ? [`Risk: ${item.risk}`] : []),
    `Urgency: ${item.urgency}`,
  ].map((f) => plain(f, FIELD_MAX));
  return [
    { type: 'header', text: plain(n.title, HEADER_MAX) },
    { type: 'section', text: plain(ntfyMessageOf(item)) },
    { type: 'section', fields },
    ...(extra.picture.length ? [pictureBlock(extra.picture)] : []),
    ...(extra.buttons.length
      ? [{ type: 'actions' as const, block_id: 'gatehouse-decide', elements: extra.buttons }]
      : []),
  ];
}

/** A digest, a reminder or the set-up's test message: its title and body, and any buttons. */
export function plainBlocks(n: OutgoingNotification, buttons: SlackButton[]): SlackBlock[] {
  return [
    { type: 'header', text: plain(n.title, HEADER_MAX) },
    ...(n.body ? [{ type: 'section' as const, text: plain(n.body) }] : []),
    ...(buttons.length
      ? [{ type: 'actions' as const, block_id: 'gatehouse-test', elements: buttons }]
      : []),
  ];
}

/** The notification's fallback text, escaped and clipped. */
export const fallbackText = (n: OutgoingNotification): string =>
  clip(slackEscape(`${n.title}\n${n.body}`), FALLBACK_MAX);

/** The message once decided: its blocks without the buttons, and the line that says who. */
export function decidedBlocks(blocks: SlackBlock[], line: string): SlackBlock[] {
  return [
    ...blocks.filter((b) => b.type !== 'actions'),
    { type: 'context', elements: [plain(line, FIELD_MAX)] },
  ];
}
