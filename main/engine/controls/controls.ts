import { ErrorCode, GatehouseError } from '../../../shared/protocol/errors';
import type { AgentNotifier } from '../kernel/ports';
import type { ControlRow, ControlsStore } from './controls-store';
import type { Unit, UnitOfWork } from '../kernel/unit-of-work';

export type ControlState = 'running' | 'paused' | 'killed';
/** The control row that stands for every agent. */
export const ALL = '*';

/**
 * The kill switch: a human pauses, resumes or kills one agent or all of them. State is kept
 * in SQLite (it survives restarts) and cached here because every agent call checks it.
 */
export class AgentControls {
  private cache = new Map<string, ControlRow>();

  constructor(
    private readonly store: ControlsStore,
    private readonly work: UnitOfWork,
    private readonly notifier: AgentNotifier,
    /** Runs inside the unit of a kill: settles the agent's waiting requests (review queue). */
    private readonly onKilled?: (u: Unit, agent: string | undefined, reason: string) => void,
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

  /** The reason a human gave for the agent's pause or kill, if any. */
  reasonOf(agent: string): string | undefined {
    return this.cache.get(agent)?.reason ?? this.cache.get(ALL)?.reason;
  }

  /** Throws -32003 unless the agent may act; `data.reason` is AGENT_PAUSED or AGENT_KILLED. */
  assertRunning(agent: string): void {
    const state = this.stateOf(agent);
    if (state !== 'running') {
      const reason = this.reasonOf(agent);
      throw new GatehouseError(
        ErrorCode.AgentPaused,
        `agent ${agent} is ${state} by a human${reason ? `: ${reason}` : ''}`,
        { reason: state === 'killed' ? 'AGENT_KILLED' : 'AGENT_PAUSED', state },
      );
    }
  }

  /**
   * Why a person's approval of this agent's request is refused now: a paused agent's requests
   * are held until it is resumed (a denial still goes through). Killed agents have none left
   * to approve: the kill cancelled them.
   */
  approvalHeld(agent: string): string | undefined {
    const state = this.stateOf(agent);
    if (state === 'running') return undefined;
    const reason = this.reasonOf(agent);
    return `agent ${agent} is ${state}${reason ? ` (${reason})` : ''}: its requests are held; resume it first (gatehouse resume ${agent}) to approve, or deny`;
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
      // Killed means stopped: what it was waiting for can no longer be released.
      if (state === 'killed')
        this.onKilled?.(u, agent, `agent killed${reason ? `: ${reason}` : ''}`);
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
