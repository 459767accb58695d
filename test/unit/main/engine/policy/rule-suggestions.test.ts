import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentCaller } from '../../../../../main/engine/engine';
import {
  computeSuggestions,
  suggestionKey,
} from '../../../../../main/engine/policy/rule-suggestions';
import type { RequestRow } from '../../../../../main/engine/requests/requests-store';
import { decisionPattern } from '../../../../../main/engine/policy/decision-pattern';
import { GatehouseError } from '../../../../../shared/protocol/errors';
import { EngineHarness } from '../../../../support/engine-harness';

const P = '/home/dev/app';
const PUSH = 'git push origin main';
const DAY = 24 * 60 * 60 * 1000;

describe('rule suggestions ("make it a rule")', () => {
  let h: EngineHarness;
  let a: AgentCaller;
  beforeEach(() => {
    h = new EngineHarness();
    a = h.hello('coder', { project: P });
  });
  afterEach(() => h.close());

  /** Files a request and has a person decide it; returns its id. */
  async function decided(
    command: string,
    decision: 'approve' | 'deny' = 'approve',
    action = 'git_push',
    who: AgentCaller = a,
  ): Promise<string> {
    const q = await h.engine.request(who, {
      action,
      description: `run ${command}`,
      command,
      urgency: 'normal',
      wait: false,
    });
    h.clock.advance(60_000);
    h.engine.admin.call('decide', { requestId: q.requestId, decision, scope: 'once', via: 'cli' });
    await h.work.durable();
    return q.requestId;
  }

  it('suggests the narrowest rule after 5 approvals, with its history, not after 4', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await decided(PUSH));
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toEqual([]);
    ids.push(await decided(PUSH));
    await decided('git push origin feature'); // another pattern, approved once
    const [s, ...rest] = h.engine.admin.call('suggestions.list', {}).suggestions;
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      draft: { action: 'git_push', command: PUSH, project: P },
      description: `git_push with command \`${PUSH}\` in project ${P}`,
      approvals: 5,
      decidedBy: 'human',
      agents: [{ agent: 'coder', approvals: 5 }],
      channels: [{ via: 'cli', approvals: 5 }],
      sessionIds: [a.sessionId],
      requestIds: [...ids].reverse(),
      lastDescription: `run ${PUSH}`,
    });
    expect(s!.key).toMatch(/^[0-9a-f]{16}$/);
    expect(Date.parse(s!.lastApprovedAt) - Date.parse(s!.firstApprovedAt)).toBe(4 * 60_000);
  });

  it('follows the setting rules.suggestAfterApprovals', async () => {
    h.engine.admin.call('settings.set', { key: 'rules.suggestAfterApprovals', value: 2 });
    await decided(PUSH);
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toEqual([]);
    await decided(PUSH);
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toHaveLength(1);
  });

  it('never suggests a pattern that was denied even once, before or after the approvals', async () => {
    await decided(PUSH, 'deny');
    for (let i = 0; i < 6; i++) await decided(PUSH);
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toEqual([]);

    for (let i = 0; i < 5; i++) await decided('git push origin dev');
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toHaveLength(1);
    await decided('git push origin dev', 'deny');
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toEqual([]);
  });

  it('accepting saves the rule (audited): the next identical request is approved by rule, another asks', async () => {
    for (let i = 0; i < 5; i++) await decided(PUSH);
    const [s] = h.engine.admin.call('suggestions.list', {}).suggestions;
    const rule = h.engine.admin.call('suggestions.accept', { key: s!.key, via: 'cli' }).rule;
    await h.work.durable();
    expect(rule).toMatchObject({ action: 'git_push', command: PUSH, project: P, tier: 'auto' });
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toEqual([]);
    const again = await h.engine.request(a, {
      action: 'git_push',
      description: 'push',
      command: PUSH,
      urgency: 'normal',
      wait: false,
    });
    expect(again).toMatchObject({ status: 'approved', decidedBy: 'rule' });
    const other = await h.engine.request(a, {
      action: 'git_push',
      description: 'push',
      command: 'git push --force origin main',
      urgency: 'normal',
      wait: false,
    });
    expect(other).toMatchObject({ status: 'queued' });
    const [audit] = h.store.queryAudit({ type: 'suggestion.accepted', limit: 5 });
    expect(audit!.data).toMatchObject({
      key: s!.key,
      ruleId: rule.ruleId,
      approvals: 5,
      via: 'cli',
    });
  });

  it('a chosen draft must be for the same action and cover the requests; unknown keys are -32002', async () => {
    for (let i = 0; i < 5; i++) await decided(PUSH);
    const [s] = h.engine.admin.call('suggestions.list', {}).suggestions;
    const codeOf = (fn: () => unknown): number | undefined => {
      try {
        fn();
      } catch (error) {
        if (error instanceof GatehouseError) return error.code;
        throw error;
      }
      return undefined;
    };
    expect(
      codeOf(
        () =>
          h.engine.admin.call('suggestions.accept', {
            key: s!.key,
            draft: { action: 'deploy' },
            via: 'cli',
          }).rule,
      ),
    ).toBe(-32602);
    expect(
      codeOf(() =>
        h.engine.admin.call('suggestions.accept', {
          key: s!.key,
          draft: { action: 'git_push', commandPrefix: 'rm' },
          via: 'cli',
        }),
      ),
    ).toBe(-32602);
    expect(
      codeOf(
        () =>
          h.engine.admin.call('suggestions.accept', { key: '0123456789abcdef', via: 'cli' }).rule,
      ),
    ).toBe(-32002);
    expect(h.engine.admin.call('rules.list', {}).rules).toEqual([]);
    // A widening the person picks is fine.
    const { rule } = h.engine.admin.call('suggestions.accept', {
      key: s!.key,
      draft: { action: 'git_push', commandPrefix: 'git push:*', project: P },
      via: 'dashboard',
    });
    expect(rule).toMatchObject({ commandPrefix: 'git push' });
  });

  it('"not now" hides a suggestion for 7 days, across a restart, then it is back', async () => {
    for (let i = 0; i < 5; i++) await decided(PUSH);
    const [s] = h.engine.admin.call('suggestions.list', {}).suggestions;
    const until = h.engine.admin.call('suggestions.snooze', {
      key: s!.key,
      via: 'dashboard',
    }).snoozedUntil;
    await h.work.durable();
    expect(Date.parse(until)).toBe(h.clock.now() + 7 * DAY);
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toEqual([]);

    h.restart();
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toEqual([]);
    h.clock.advance(7 * DAY - 1000);
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toEqual([]);
    h.clock.advance(1000);
    expect(h.engine.admin.call('suggestions.list', {}).suggestions.map((x) => x.key)).toEqual([
      s!.key,
    ]);
    expect(h.store.queryAudit({ type: 'suggestion.snoozed', limit: 5 })).toHaveLength(1);
  });

  it('the counts survive a restart (they are the decisions themselves)', async () => {
    const b = h.hello('reviewer', { project: P });
    for (let i = 0; i < 3; i++) await decided(PUSH);
    for (let i = 0; i < 2; i++) await decided(PUSH, 'approve', 'git_push', b);
    const before = h.engine.admin.call('suggestions.list', {}).suggestions;
    h.restart();
    const [s] = h.engine.admin.call('suggestions.list', {}).suggestions;
    expect(s).toMatchObject({
      key: before[0]!.key,
      approvals: 5,
      agents: [
        { agent: 'coder', approvals: 3 },
        { agent: 'reviewer', approvals: 2 },
      ],
    });
    expect(s!.sessionIds).toEqual([b.sessionId, a.sessionId]);
  });

  it('the session summary lists the suggestions that arose in that session', async () => {
    for (let i = 0; i < 5; i++) await decided(PUSH);
    const summary = h.engine.end(a, { status: 'completed' }).summary;
    const [s] = h.engine.admin.call('suggestions.list', {}).suggestions;
    expect(summary.text).toContain('Suggestions (1):');
    expect(summary.text).toContain(`You approved git_push with command \`${PUSH}\``);
    expect(summary.text).toContain(`gatehouse suggestions accept ${s!.key}`);

    const other = h.hello('other', { project: P });
    expect(h.engine.end(other, { status: 'completed' }).summary.text).not.toContain('Suggestions');
  });

  it("a session's suggestions, read from only its patterns' decisions, are the full scan's", async () => {
    const b = h.hello('reviewer', { project: P });
    const elsewhere = h.hello('coder', { project: '/home/dev/other' });
    const file = async (
      who: AgentCaller,
      shape: { action: string; command?: string; target?: string; paths?: string[] },
      decision: 'approve' | 'deny' = 'approve',
    ) => {
      const q = await h.engine.request(who, {
        ...shape,
        description: `do ${shape.action}`,
        urgency: 'normal',
        wait: false,
      });
      h.clock.advance(1_000);
      h.engine.admin.call('decide', { requestId: q.requestId, decision, scope: 'once' });
    };
    const spaced = { action: 'run_command', command: '  npm   test ' };
    const tight = { action: 'run_command', command: 'npm test' };
    const paths = { action: 'write_file', paths: [`${P}/src/a.ts`] };
    const target = { action: 'http_request', target: 'https://api.example.com' };
    const literalNull = { action: 'run_command', command: 'null' };
    const deniedOnce = { action: 'run_command', command: 'make deploy' };
    // Counted across sessions: b's approvals add to a's pattern, whitespace included.
    for (let i = 0; i < 3; i++) await file(b, spaced);
    for (let i = 0; i < 2; i++) await file(a, tight);
    for (let i = 0; i < 4; i++) await file(b, paths);
    await file(a, paths);
    for (let i = 0; i < 5; i++) await file(a, target);
    for (let i = 0; i < 5; i++) await file(elsewhere, target); // another project: another pattern
    for (let i = 0; i < 5; i++) await file(a, literalNull);
    for (let i = 0; i < 5; i++) await file(a, deniedOnce);
    await file(b, deniedOnce, 'deny'); // denied in another session: never suggested
    for (let i = 0; i < 6; i++) await file(b, { action: 'run_command', command: 'only b' });
    await h.work.durable();

    const all = h.engine.admin.call('suggestions.list', {}).suggestions;
    for (const who of [a, b, elsewhere]) {
      const own = h.engine.admin.call('suggestions.list', { sessionId: who.sessionId });
      expect(own.suggestions).toEqual(all.filter((s) => s.sessionIds.includes(who.sessionId)));
    }
    const ofA = h.engine.admin.call('suggestions.list', { sessionId: a.sessionId }).suggestions;
    expect(ofA.map((s) => [s.draft, s.approvals])).toEqual([
      [{ action: 'run_command', command: 'null', project: P }, 5],
      [{ action: 'http_request', target: 'https://api.example.com', project: P }, 5],
      [{ action: 'write_file', paths: ['src/a.ts'], project: P }, 5],
      [{ action: 'run_command', command: 'npm test', project: P }, 5],
    ]);
    const noApprovals = h.hello('idle', { project: P });
    expect(
      h.engine.admin.call('suggestions.list', { sessionId: noApprovals.sessionId }).suggestions,
    ).toEqual([]);
  });

  it('requests without a command, target or paths are never suggested (the rule would be action-wide)', async () => {
    for (let i = 0; i < 5; i++) {
      const q = await h.engine.request(a, {
        action: 'deploy',
        description: `deploy #${i}`,
        urgency: 'normal',
        wait: false,
      });
      h.engine.admin.call('decide', { requestId: q.requestId, decision: 'approve', scope: 'once' });
    }
    await h.work.durable();
    expect(h.engine.admin.call('suggestions.list', {}).suggestions).toEqual([]);
  });
});

describe('computeSuggestions', () => {
  const row = (n: number, over: Partial<RequestRow> = {}): RequestRow => ({
    requestId: `req-${n}`,
    sessionId: 'ses-1',
    agent: 'coder',
    project: P,
    action: 'git_push',
    description: 'push',
    urgency: 'normal',
    command: PUSH,
    fingerprint: 'x',
    status: 'approved',
    tier: 'ask',
    rule: 'default:git_push',
    ruleReason: 'asks',
    createdAt: n * 1000,
    decidedAt: n * 1000 + 500,
    decidedBy: 'human',
    ...over,
  });
  /** A decision as the store hands it over: the row and the pattern stored with it. */
  const decided = (r: RequestRow) => ({ row: r, pattern: decisionPattern(r) });
  const five = (over: Partial<RequestRow> = {}) =>
    [5, 4, 3, 2, 1].map((n) => decided(row(n, over)));
  const base = { rules: [], snoozed: new Set<string>(), threshold: 5 };

  it('suggests five human approvals', () => {
    expect(computeSuggestions({ ...base, decisions: five() })).toHaveLength(1);
  });

  it('never for Gatehouse-protected or critical requests', () => {
    const locked = five();
    locked[2] = decided(row(3, { rule: 'protected:gatehouse_files' }));
    expect(computeSuggestions({ ...base, decisions: locked })).toEqual([]);
    expect(
      computeSuggestions({ ...base, decisions: five({ rule: 'protected:policy_file' }) }),
    ).toEqual([]);
  });

  it('never when a rule (either tier) already covers it', () => {
    const rule = {
      ruleId: 'rul-1',
      action: 'git_push',
      commandPrefix: 'git push',
      tier: 'ask' as const,
      source: 'user' as const,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    expect(computeSuggestions({ ...base, rules: [rule], decisions: five() })).toEqual([]);
    const elsewhere = { ...rule, project: '/other' };
    expect(computeSuggestions({ ...base, rules: [elsewhere], decisions: five() })).toHaveLength(1);
  });

  it('counts only human decisions: rule, grant and policy approvals do not add up', () => {
    expect(computeSuggestions({ ...base, decisions: five({ decidedBy: 'grant' }) })).toEqual([]);
  });

  it('keys are stable and differ between patterns', () => {
    expect(suggestionKey('a')).toBe(suggestionKey('a'));
    expect(suggestionKey('a')).not.toBe(suggestionKey('b'));
  });
});
