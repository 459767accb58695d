import type { ProjectPolicy, ProjectPolicyLoader } from './project-policy';

/**
 * The project policy as one agent call sees it. One gated call looks at the policy several
 * times (the guards' context, each candidate action, the request it files): within the
 * synchronous part of a call ({@link inCall}) the file is looked up once; outside a call,
 * and in the next one, afresh, so an edit is seen at once.
 */
export class ProjectPolicyMemo {
  private memo: Map<string, { policy?: ProjectPolicy | undefined; error?: unknown }> | undefined;

  constructor(private readonly load: ProjectPolicyLoader) {}

  inCall<T>(fn: () => T): T {
    if (this.memo) return fn();
    this.memo = new Map();
    try {
      return fn();
    } finally {
      this.memo = undefined;
    }
  }

  /** The project's policy file (a broken file throws, every time it is asked). */
  get(project: string): ProjectPolicy | undefined {
    const memo = this.memo;
    if (!memo) return this.load(project);
    let hit = memo.get(project);
    if (!hit) {
      try {
        hit = { policy: this.load(project) };
      } catch (error) {
        hit = { error };
      }
      memo.set(project, hit);
    }
    if (hit.error !== undefined) throw hit.error;
    return hit.policy;
  }
}
