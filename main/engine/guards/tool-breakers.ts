import type { Clock } from '../../../shared/clock';
import {
  CircuitBreaker,
  type CircuitBreakerConfig,
  type CircuitSnapshot,
} from '../../../shared/circuit-breaker';
import type { GuardStateStore } from './guard-state-store';

interface StoredToolBreaker {
  agent: string;
  tool: string;
  snapshot: CircuitSnapshot;
}

const PREFIX = 'tool:';

/**
 * Per-agent, per-tool three-state breakers on the daemon side, fed by `outcome` and asked by
 * `check`. Every breaker is restored from the store on first use, so one that was open when
 * Gatehouse stopped times into half-open on its own.
 */
export class ToolBreakers {
  private readonly breakers = new Map<
    string,
    { agent: string; tool: string; breaker: CircuitBreaker }
  >();

  /** False until the first use (and after a rollback) builds the breakers from the store. */
  private loaded = false;

  constructor(
    private readonly clock: Clock,
    private readonly store: GuardStateStore,
    private readonly config: () => CircuitBreakerConfig,
  ) {}

  /**
   * Forgets every breaker; the next use rebuilds them from the store, as at start-up (after
   * a rollback). Lazy, so that a run of failing units costs one rebuild, not one each.
   */
  reload(): void {
    this.dispose();
    this.breakers.clear();
    this.loaded = false;
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    for (const { key, value } of this.store.listStates(PREFIX)) {
      const stored = value as StoredToolBreaker;
      this.create(key, stored.agent, stored.tool).restore(stored.snapshot);
    }
  }

  static nameOf(agent: string, tool: string): string {
    return `${PREFIX}${agent}:${tool}`;
  }

  get(agent: string, tool: string): CircuitBreaker {
    this.load();
    const name = ToolBreakers.nameOf(agent, tool);
    return this.breakers.get(name)?.breaker ?? this.create(name, agent, tool);
  }

  find(name: string): CircuitBreaker | undefined {
    this.load();
    return this.breakers.get(name)?.breaker;
  }

  save(agent: string, tool: string): void {
    this.load();
    const name = ToolBreakers.nameOf(agent, tool);
    const entry = this.breakers.get(name);
    if (entry) {
      const stored: StoredToolBreaker = { agent, tool, snapshot: entry.breaker.snapshot() };
      this.store.saveState(name, stored);
    }
  }

  saveByName(name: string): void {
    this.load();
    const entry = this.breakers.get(name);
    if (entry) this.save(entry.agent, entry.tool);
  }

  list(): { name: string; agent: string; tool: string; breaker: CircuitBreaker }[] {
    this.load();
    return [...this.breakers].map(([name, e]) => ({ name, ...e }));
  }

  dispose(): void {
    for (const { breaker } of this.breakers.values()) breaker.dispose();
  }

  private create(name: string, agent: string, tool: string): CircuitBreaker {
    const breaker = new CircuitBreaker(name, this.clock, this.config());
    this.breakers.set(name, { agent, tool, breaker });
    return breaker;
  }
}
