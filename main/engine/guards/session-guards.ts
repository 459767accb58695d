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

export const sessionKey = (sessionId: string, part: SessionPart): string =>
  `session:${sessionId}:${part}`;

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
