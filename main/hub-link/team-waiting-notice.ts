import type { DesktopNotice } from '../notify/desktop-port';
import type { TeamWaiting } from './hub-connection';
import { visibleText } from '../../shared/visible-text';

/**
 * Control characters (newlines included) would break a notice's one-line summary; the
 * characters that hide or reorder text (a right-to-left override in an agent's description)
 * are written as `⟨U+202E⟩` first, as every notification writes them (shared/visible-text.ts).
 */
const oneLine = (text: string): string =>
  visibleText(text)
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .trim()
    .slice(0, 300);

/**
 * The desktop notice of a request waiting on another machine of the team: what it is, the
 * machine it waits on, and the hub's signed page where its owner approves or denies it (a
 * click opens it). Not a local request: no Approve or Deny buttons, nothing decided here.
 * Plain text; the notifier escapes the body as it does for every notice.
 */
export function teamWaitingNotice(w: TeamWaiting): DesktopNotice {
  return {
    title: oneLine(`${w.machine}: ${w.title}`),
    body: `Waiting on ${oneLine(w.machine)}. Approve or deny it on the hub: ${w.link}`,
    urgency: w.urgency,
    url: w.link,
  };
}
