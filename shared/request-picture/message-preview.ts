import { maskSecrets } from './mask-secrets';
import type { MessagePicture } from './picture-schema';

/** The most characters of a body shown (the start of the message, as an inbox shows it). */
export const MAX_BODY_CHARS = 2000;
/** The most recipients listed per field; the rest are counted. */
const MAX_RECIPIENTS = 50;

type Kind = MessagePicture['kind'];

/**
 * What kind of message a tool or action sends, from its name: the SDK's actions
 * (`send_email`, `post_message`, `create_comment`, …) and MCP tools named like them
 * (`mcp__gmail__send_email`, `mcp:slack:chat_post_message`, `add_issue_comment`).
 */
export function messageKindOf(name: string): Kind | undefined {
  const tool = name
    .toLowerCase()
    .replace(/^mcp__.+?__/, '')
    .replace(/^mcp:[^:]*:/, '');
  if (/(^|[_-])(send_)?e?mail($|[_-])|send_email|draft_email|reply_email/.test(tool))
    return 'email';
  if (/comment|review/.test(tool)) return 'comment';
  if (/(create|open)_(issue|pull_request|pr)$/.test(tool)) return 'issue';
  if (/(post|send)_?(message|chat|msg)|chat_post|slack|discord|teams|telegram|sms/.test(tool))
    return 'chat';
  return undefined;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

/** Addresses as an input gives them: a string (comma-separated), a list, or `{email, name}`. */
function addresses(v: unknown): string[] | undefined {
  const one = (x: unknown): string[] => {
    if (typeof x === 'string')
      return x
        .split(/[,;]/)
        .map((s) => s.trim())
        .filter(Boolean);
    if (typeof x === 'object' && x !== null) {
      const r = x as Record<string, unknown>;
      const email = str(r.email) ?? str(r.address) ?? str(r.id);
      const name = str(r.name);
      return email ? [name ? `${name} <${email}>` : email] : [];
    }
    return [];
  };
  const all = Array.isArray(v) ? v.flatMap(one) : one(v);
  if (!all.length) return undefined;
  if (all.length <= MAX_RECIPIENTS) return all;
  return [...all.slice(0, MAX_RECIPIENTS), `… and ${all.length - MAX_RECIPIENTS} more`];
}

const first = (input: Record<string, unknown>, keys: readonly string[]): unknown =>
  keys.map((k) => input[k]).find((v) => v !== undefined && v !== null && v !== '');

/** Where a chat post or comment goes: a channel, or `owner/repo#N`. */
function placeOf(input: Record<string, unknown>): string | undefined {
  const channel = str(first(input, ['channel', 'channel_id', 'channelId', 'chat_id', 'room']));
  if (channel !== undefined) return channel;
  const repo =
    str(input.repo) && str(input.owner)
      ? `${str(input.owner)}/${str(input.repo)}`
      : str(input.repo);
  const number = str(first(input, ['issue_number', 'pull_number', 'pullNumber', 'number']));
  if (repo && number) return `${repo}#${number}`;
  return repo ?? (number ? `#${number}` : undefined);
}

/**
 * The preview of a message an action would send, from its input (a tool's arguments, or an
 * SDK request's context): recipients, subject or channel, and the start of the body, secrets
 * masked. Undefined when the action sends no message or its input names none of these.
 */
export function messagePreviewOf(
  name: string,
  input: Record<string, unknown>,
): MessagePicture | undefined {
  const kind = messageKindOf(name);
  if (kind === undefined) return undefined;
  const to = addresses(first(input, ['to', 'recipients', 'recipient', 'to_addresses', 'email']));
  const cc = addresses(input.cc);
  const bcc = addresses(input.bcc);
  const subject = str(first(input, ['subject', 'title']));
  const channel = placeOf(input);
  const rawBody = str(first(input, ['body', 'text', 'message', 'content', 'markdown', 'html']));
  if (!to && !subject && !channel && rawBody === undefined) return undefined;
  const masked = rawBody === undefined ? undefined : maskSecrets(rawBody);
  const cut = masked !== undefined && masked.length > MAX_BODY_CHARS;
  return {
    kind,
    ...(to ? { to } : {}),
    ...(cc ? { cc } : {}),
    ...(bcc ? { bcc } : {}),
    ...(channel !== undefined ? { channel } : {}),
    ...(subject !== undefined ? { subject: maskSecrets(subject).slice(0, 300) } : {}),
    ...(masked !== undefined ? { body: cut ? masked.slice(0, MAX_BODY_CHARS) : masked } : {}),
    ...(cut
      ? { omitted: `the body is cut: ${masked.length - MAX_BODY_CHARS} more characters` }
      : {}),
  };
}
