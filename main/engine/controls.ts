import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import type { AgentNotifier } from './ports';
import type { ControlRow, EngineStore } from './store-port';
import type { UnitOfWork } from './unit-of-work';

export type ControlState = 'running' | 'paused' | 'killed';
const ALL = '*';

/**
 * The kill switch: a human pauses, resumes or kills one agent or all of them. State is kept
 * in SQLite (it survives restarts) and cached here because every agent call checks it.
 */
export class AgentControls {
  private cache = new Map<string, ControlRow>();

  constructor(
    private readonly store: EngineStore,
    private readonly work: UnitOfWork,
    private readonly notifier: AgentNotifier,
  ) {
    this.reload();
    // A pause or resume whose unit rolls back must not stay in force.
    work.onRollback(() => this.reload());
  }

  private reload(): void {
    this.cache = new Map(this.store.listControls().map((c) => [c.agent, c]));
  }

  stateOf(agent: string): ControlState {
    const own = this.cache.get(agent)?.state;
    const all = this.cache.get(ALL)?.state;
    if (own === 'killed' || all === 'killed') return 'killed';
    if (own === 'paused' || all === 'paused') return 'paused';
    return 'running';
  }

  allPaused(): boolean {
    return this.cache.has(ALL);
  }

  /** Throws -32003 unless the agent may act. */
  assertRunning(agent: string): void {
    const state = this.stateOf(agent);
    if (state !== 'running') {
      const reason = this.cache.get(agent)?.reason ?? this.cache.get(ALL)?.reason;
      throw new GatehouseError(
        ErrorCode.AgentPaused,
        `agent ${agent} is ${state} by a human${reason ? `: ${reason}` : ''}`,
      );
    }
  }

  set(agent: string | undefined, state: 'paused' | 'killed' | 'resumed', reason?: string): void {
    const key = agent ?? ALL;
    this.work.run((u) => {
      if (state === 'resumed') {
        if (agent === undefined)
          for (const c of this.store.listControls()) this.store.clearControl(c.agent);
        else this.store.clearControl(key);
      } else {
        this.store.setControl({
          agent: key,
          state,
          ...(reason ? { reason } : {}),
          updatedAt: u.now,
        });
      }
      u.audit(`agent.${state}`, {
        ...(agent ? { agent } : {}),
        data: { scope: agent ?? 'all', ...(reason ? { reason } : {}) },
      });
      u.publish({
        type: 'agent.control',
        agents: [
          {
            agent: key,
            state: state === 'resumed' ? 'running' : state,
            sessions: 0,
            connections: 0,
          },
        ],
        state,
        ...(reason ? { reason } : {}),
      });
      this.reload();
      u.afterCommit(() =>
        this.notifier.toAgent(agent, 'control', { state, ...(reason ? { reason } : {}) }),
      );
    });
  }
}
