import type { GuardStateStore } from './guard-state-store';
import { newErrorRateState, type ErrorRateState } from './error-rate-breaker';
import { newIterationState, type IterationState } from './iteration-breaker';
import { newRunState, type RunState } from './run-breaker';
import { newSwitchState, type SwitchState } from './safety-switch';
import { newStuckState, type StuckState } from './stuck-detector';
import { newTimeState, type TimeState } from './time-breaker';

/** The per-session state of every session-scoped guard. Each part persists on its own key. */
export interface SessionParts {
  iteration: IterationState;
  time: TimeState;
  errors: ErrorRateState;
  stuck: StuckState;
  run: RunState;
  safety: SwitchState;
}
export type SessionPart = keyof SessionParts;
export const SESSION_PARTS: readonly SessionPart[] = [
  'iteration',
  'time',
  'errors',
  'stuck',
  'run',
  'safety',
];

const fresh = (part: SessionPart, now: number): SessionParts[SessionPart] => {
  switch (part) {
    case 'iteration':
      return newIterationState();
    case 'time':
      return newTimeState(now);
    case 'errors':
      return newErrorRateState();
    case 'stuck':
      return newStuckState();
    case 'run':
      return newRunState();
    case 'safety':
      return newSwitchState();
  }
};

/** The one place that builds and splits the store keys of session state: `session:<id>:<part>`. */
const PREFIX = 'session:';
const sessionKey = (sessionId: string, part: SessionPart): string =>
  `${PREFIX}${sessionId}:${part}`;
function parseSessionKey(key: string): { sessionId: string; part: SessionPart } | undefined {
  const cut = key.lastIndexOf(':');
  const part = key.slice(cut + 1) as SessionPart;
  if (!key.startsWith(PREFIX) || cut <= PREFIX.length || !SESSION_PARTS.includes(part)) {
    return undefined;
  }
  return { sessionId: key.slice(PREFIX.length, cut), part };
}

/** One session's stored state of one part. */
export interface StoredPart<P extends SessionPart> {
  sessionId: string;
  state: SessionParts[P];
}

/**
 * One session's guard state, loaded part by part on first use and written back only where
 * a call changed it (`touch`), so a `check` writes one small row rather than everything.
 */
export class SessionGuards {
  private readonly parts: Partial<SessionParts> = {};
  private readonly dirty = new Set<SessionPart>();

  constructor(
    readonly sessionId: string,
    private readonly store: GuardStateStore,
    private readonly now: () => number,
  ) {}

  get<P extends SessionPart>(part: P): SessionParts[P] {
    let value = this.parts[part] as SessionParts[P] | undefined;
    if (value === undefined) {
      const stored = this.store.loadState(sessionKey(this.sessionId, part)) as
        SessionParts[P] | undefined;
      value = stored ?? (fresh(part, this.now()) as SessionParts[P]);
      this.parts[part] = value;
      // The run clock starts at the first guard call; persist it at once so it survives a restart.
      if (stored === undefined && part === 'time') this.dirty.add(part);
    }
    return value;
  }

  /** Reads a part for a change: it will be written back on `flush`. */
  touch<P extends SessionPart>(part: P): SessionParts[P] {
    this.dirty.add(part);
    return this.get(part);
  }

  /** Replaces a part with a fresh one (a human reset). */
  reset(part: SessionPart): void {
    this.parts[part] = fresh(part, this.now()) as never;
    this.dirty.add(part);
  }

  flush(): void {
    for (const part of this.dirty) {
      this.store.saveState(sessionKey(this.sessionId, part), this.parts[part]);
    }
    this.dirty.clear();
  }
}

/** The guard state of every session: loaded on first use, cached until the session ends. */
export class SessionStates {
  private readonly sessions = new Map<string, SessionGuards>();

  constructor(
    private readonly store: GuardStateStore,
    private readonly now: () => number,
  ) {}

  get(sessionId: string): SessionGuards {
    let s = this.sessions.get(sessionId);
    if (!s) {
      s = new SessionGuards(sessionId, this.store, this.now);
      this.sessions.set(sessionId, s);
    }
    return s;
  }

  /** Whether the store holds any guard state of the session. */
  known(sessionId: string): boolean {
    // The prefix alone would also match the longer id `<id>:more`.
    return this.store
      .listStates(`${PREFIX}${sessionId}:`)
      .some(({ key }) => parseSessionKey(key)?.sessionId === sessionId);
  }

  /** Every session's stored state, by part, in session order (one read of the store). */
  stored(): { [P in SessionPart]: StoredPart<P>[] } {
    const out = { iteration: [], time: [], errors: [], stuck: [], run: [], safety: [] } as {
      [P in SessionPart]: StoredPart<P>[];
    };
    for (const { key, value } of this.store.listStates(PREFIX)) {
      const parsed = parseSessionKey(key);
      if (parsed)
        (out[parsed.part] as StoredPart<SessionPart>[]).push({
          sessionId: parsed.sessionId,
          state: value as SessionParts[SessionPart],
        });
    }
    return out;
  }

  /** Drops a session's cached state (the session ended; its stored state stays). */
  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** Drops every cached session (a rollback); each is read again on next use. */
  clear(): void {
    this.sessions.clear();
  }
}
