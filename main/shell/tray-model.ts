import type { RequestRecord } from '../../shared/domain';
import { agentPresence, agentsAwayText, type AgentsAwayCounts } from '../../shared/agent-presence';
import { visibleText } from '../../shared/visible-text';

/** The four tray pictures; each is a file pair in assets/ (`tray-<image>.png` and `@2x`). */
export type TrayImage = 'idle' | 'pending' | 'breaker' | 'paused';

/** What the tray shows, gathered from the admin service and its event stream. */
export interface TrayState {
  /**
   * The head of the review queue (pending and timed-out requests), what needs the person
   * first, as the engine lists them (shared/queue-order.ts). The controller loads only the first page the menu can show.
   */
  pending: readonly Pick<
    RequestRecord,
    | 'requestId'
    | 'agent'
    | 'description'
    | 'urgency'
    | 'status'
    | 'risk'
    | 'agentState'
    | 'agentConnected'
  >[];
  /**
   * How many requests wait in all (`status.pending`), when known; the menu lists only the head
   * of a long queue. Without it the tray counts `pending`.
   */
  waiting?: number;
  /** How many of `waiting` timed out (`status.timedOut`), when known. */
  timedOut?: number;
  /**
   * How many of `waiting` were asked by agents that will not act on an answer now
   * (`status.pendingAgentsAway`: paused, killed, gone), when known. Without it the tray counts
   * `pending`.
   */
  agentsAway?: AgentsAwayCounts;
  /** Every agent is paused (`status.paused`). */
  paused: boolean;
  /** Names of breakers that tripped open and have not been reset since. */
  openBreakers: readonly string[];
  /** Sessions in conservative mode (the safety switch), with why. */
  conservative: readonly ConservativeSession[];
  quietHours: boolean;
  startAtLogin: boolean;
  /** The team hub this machine joined (`status.hub`), when it joined one. */
  hub?: TrayHub;
}

/** A joined hub as the tray shows it: where, and whether the link is up. */
export interface TrayHub {
  url: string;
  machineName: string;
  connected: boolean;
  error?: string;
  /** Waiting requests the hub shows too. */
  shownOnHub: number;
}

/** A session the safety switch put into conservative mode. */
export interface ConservativeSession {
  sessionId: string;
  agent?: string;
  reason?: string;
}

/** What a menu click asks for; {@link TrayCommand}s are run by the tray controller. */
export type TrayCommand =
  | { type: 'open-request'; requestId: string }
  | { type: 'open' }
  | { type: 'set-quiet-hours'; enabled: boolean }
  | { type: 'set-start-at-login'; enabled: boolean }
  | { type: 'pause-all' }
  | { type: 'resume-all' }
  | { type: 'recover-session'; sessionId: string }
  | { type: 'quit' };

/** One context-menu entry. Ids are stable so tests and screen readers can find items. */
export type TrayMenuItem =
  | { kind: 'item'; id: string; label: string; enabled: boolean; command?: TrayCommand }
  | { kind: 'checkbox'; id: string; label: string; checked: boolean; command: TrayCommand }
  | { kind: 'separator'; id: string };

export interface TrayModel {
  image: TrayImage;
  /** Hover text on every platform. */
  tooltip: string;
  /** Text next to the icon in the macOS menu bar: the pending count, or empty. */
  title: string;
  items: TrayMenuItem[];
}

/** How many requests the menu lists before it folds the rest into "more…". */
export const MAX_LISTED_REQUESTS = 10;
const MAX_LABEL = 60;

/** Stable menu item id of one pending request. */
export const requestItemId = (requestId: string): string => `request:${requestId}`;

/**
 * The tray as a pure function of its state. The picture says the most pressing thing first:
 * an open breaker (something is failing), then pending gates (someone waits for you), then
 * paused, then idle.
 */
export function trayModel(state: TrayState): TrayModel {
  const count = Math.max(state.waiting ?? 0, state.pending.length);
  const image: TrayImage =
    state.openBreakers.length > 0
      ? 'breaker'
      : count > 0
        ? 'pending'
        : state.paused
          ? 'paused'
          : 'idle';

  const timedOut = state.timedOut ?? state.pending.filter((r) => r.status === 'timed_out').length;
  const facts = [
    count === 0
      ? 'no pending gates'
      : `${count} pending ${plural(count, 'gate')}${timedOut ? ` (${timedOut} timed out)` : ''}`,
  ];
  const away = awayText(state);
  if (away) facts.push(away);
  if (state.openBreakers.length > 0) {
    facts.push(`breaker open: ${state.openBreakers.join(', ')}`);
  }
  if (state.conservative.length > 0) {
    facts.push(`${state.conservative.length} in conservative mode`);
  }
  if (state.paused) facts.push('agents paused');
  if (state.quietHours) facts.push('quiet hours');
  if (state.hub) facts.push(state.hub.connected ? 'hub linked' : 'hub not linked');

  return {
    image,
    tooltip: `Gatehouse: ${facts.join(' · ')}`,
    title: count > 0 ? String(count) : '',
    items: [
      ...requestItems(state.pending, count),
      ...conservativeItems(state.conservative),
      ...hubItems(state.hub),
      { kind: 'separator', id: 'separator-requests' },
      {
        kind: 'item',
        id: 'open',
        label: 'Open Gatehouse',
        enabled: true,
        command: { type: 'open' },
      },
      {
        kind: 'checkbox',
        id: 'quiet-hours',
        label: 'Quiet hours',
        checked: state.quietHours,
        command: { type: 'set-quiet-hours', enabled: !state.quietHours },
      },
      state.paused
        ? {
            kind: 'item',
            id: 'resume-all',
            label: 'Resume all agents',
            enabled: true,
            command: { type: 'resume-all' },
          }
        : {
            kind: 'item',
            id: 'pause-all',
            label: 'Pause all agents',
            enabled: true,
            command: { type: 'pause-all' },
          },
      {
        kind: 'checkbox',
        id: 'start-at-login',
        label: 'Start at login',
        checked: state.startAtLogin,
        command: { type: 'set-start-at-login', enabled: !state.startAtLogin },
      },
      { kind: 'separator', id: 'separator-quit' },
      {
        kind: 'item',
        id: 'quit',
        label: 'Quit Gatehouse',
        enabled: true,
        command: { type: 'quit' },
      },
    ],
  };
}

function requestItems(pending: TrayState['pending'], count: number): TrayMenuItem[] {
  if (count === 0) {
    return [{ kind: 'item', id: 'pending-none', label: 'No pending gates', enabled: false }];
  }
  const listed: TrayMenuItem[] = pending.slice(0, MAX_LISTED_REQUESTS).map((r) => ({
    kind: 'item',
    id: requestItemId(r.requestId),
    label: requestLabel(r),
    enabled: true,
    command: { type: 'open-request', requestId: r.requestId },
  }));
  const rest = count - listed.length;
  if (rest > 0) {
    listed.push({
      kind: 'item',
      id: 'pending-more',
      label: `${rest} more…`,
      enabled: true,
      command: { type: 'open' },
    });
  }
  return listed;
}

function requestLabel(r: TrayState['pending'][number]): string {
  const marks = [
    r.risk === 'critical' ? 'CRITICAL' : '',
    r.urgency === 'high' ? 'urgent' : '',
    r.status === 'timed_out' ? 'timed out' : '',
    agentPresence(r) ?? '',
  ]
    .filter(Boolean)
    .join(', ');
  const text = `${r.agent}: ${r.description.replace(/\s+/g, ' ').trim()}`;
  return menuLabel(text, marks ? ` (${marks})` : '');
}

/**
 * A menu label: one line, clipped, with a suffix kept whole. An agent's name and description
 * are in it, so a character that hides or reorders text (a right-to-left override) is written
 * as `⟨U+202E⟩` (shared/visible-text.ts), before whitespace is flattened.
 */
function menuLabel(text: string, suffix = ''): string {
  const one = visibleText(text).replace(/\s+/g, ' ').trim();
  const short = one.length > MAX_LABEL ? `${one.slice(0, MAX_LABEL - 1)}…` : one;
  // Menus on Windows and Linux read "&" as a mnemonic marker; "&&" shows one ampersand.
  return `${short}${suffix}`.replace(/&/g, '&&');
}

const plural = (n: number, word: string): string => (n === 1 ? word : `${word}s`);

/** How many pending requests no agent will act on now, by why (see {@link agentsAwayText}). */
function awayText(state: TrayState): string {
  if (state.agentsAway) return agentsAwayText(state.agentsAway);
  const counts = { paused: 0, killed: 0, gone: 0 };
  for (const r of state.pending) {
    const presence = agentPresence(r);
    if (presence) counts[presence]++;
  }
  return agentsAwayText(counts);
}

/**
 * The safety switch in the menu: one "try again" per session in conservative mode, saying why
 * (the dashboard's banner shows the restrictions).
 */
function conservativeItems(sessions: TrayState['conservative']): TrayMenuItem[] {
  if (sessions.length === 0) return [];
  return [
    { kind: 'separator', id: 'separator-conservative' },
    ...sessions.map((s): TrayMenuItem => ({
      kind: 'item',
      id: `conservative:${s.sessionId}`,
      label: menuLabel(
        `${s.agent ?? s.sessionId}: conservative mode${s.reason ? ` (${s.reason})` : ''} — try again`,
      ),
      enabled: true,
      command: { type: 'recover-session', sessionId: s.sessionId },
    })),
  ];
}

/**
 * The joined hub, as information (no command: joining and leaving are `gatehouse hub join|leave`):
 * linked or why not, and how many of the waiting requests the team sees there too.
 */
function hubItems(hub: TrayHub | undefined): TrayMenuItem[] {
  if (!hub) return [];
  const host = hostOf(hub.url);
  const link = hub.connected
    ? `linked to ${host} as ${hub.machineName}`
    : `not linked to ${host}${hub.error ? ` (${hub.error})` : ''}`;
  return [
    { kind: 'separator', id: 'separator-hub' },
    { kind: 'item', id: 'hub-link', label: menuLabel(`Team hub: ${link}`), enabled: false },
    ...(hub.shownOnHub > 0
      ? [
          {
            kind: 'item' as const,
            id: 'hub-shown',
            label: `${hub.shownOnHub} pending ${plural(hub.shownOnHub, 'gate')} also on the hub`,
            enabled: false,
          },
        ]
      : []),
  ];
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};
