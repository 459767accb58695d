import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook, type PreToolAnswer } from '../../support/claude-hook';
import { CLI, type TestDaemon } from '../../support/daemon';
import { TestHub } from '../../support/hub';
import { startPostgresHubStage, type PostgresHubStage } from '../../support/hub-postgres-stage';

const GIT_ENV = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

/** The commit the bare remote's main points at, or '' when it has none. */
function remoteHead(remote: string): string {
  try {
    return execFileSync('git', ['--git-dir', remote, 'rev-parse', 'refs/heads/main'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '';
  }
}

/**
 * Team policy end to end: a real hub on PostgreSQL, a real joined daemon, the real hook
 * (`gatehouse hook claude-code`) and real git. The machine's own user rule and a trusted
 * project file both say git_push is `auto`; the team's `ask` outranks them. Every call
 * Gatehouse allows is then performed, so what the test checks is what really happened.
 */
describe('team policy pushed to a joined machine (real hub, PostgreSQL, daemon, hook)', () => {
  let stage: PostgresHubStage;
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-team-')));
  const project = join(tmp, 'project');
  const remote = join(tmp, 'remote.git');
  let pushRuleId = '';
  let dbUrl = '';

  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: project,
      env: { ...process.env, ...GIT_ENV },
      stdio: 'ignore',
    });

  const hook = (tool: string, input: Record<string, unknown>): Promise<PreToolAnswer> =>
    runClaudeHook(
      { ...daemon.env, GATEHOUSE_HOOK_WAIT_MS: '200', GATEHOUSE_HOOK_FALLBACK: 'deny' },
      preToolUse(tool, input, { cwd: project, session: 'team' }),
    );

  /** The Bash tool as Claude Code runs it: only when Gatehouse allows. */
  async function bash(command: string): Promise<PreToolAnswer> {
    const r = await hook('Bash', { command });
    if (r.decision === 'allow')
      try {
        execFileSync('bash', ['-c', command], {
          cwd: project,
          env: { ...daemon.env, ...GIT_ENV },
          stdio: 'ignore',
          timeout: 20_000,
        });
      } catch {
        // A failing command still ran; its effect is what the test checks.
      }
    return r;
  }

  /** The Write tool as Claude Code runs it: only when Gatehouse allows. */
  async function write(path: string, content: string): Promise<PreToolAnswer> {
    const r = await hook('Write', { file_path: path, content });
    if (r.decision === 'allow') {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    return r;
  }

  /** A new commit in the project, to push. */
  function commit(name: string): string {
    writeFileSync(join(project, name), `${name}\n`);
    git('add', name);
    git('commit', '-qm', name);
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: project, encoding: 'utf8' }).trim();
  }

  const hubPolicy = async (...args: string[]) => {
    const r = await hub.cli(['policy', ...args]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };

  const teamVersion = async (): Promise<number> =>
    (await admin.call('status', {})).teamPolicy?.version ?? 0;

  beforeAll(async () => {
    mkdirSync(project);
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
    git('init', '-q', '-b', 'main');
    git('remote', 'add', 'origin', remote);
    writeFileSync(
      join(project, '.gatehouse.toml'),
      '[rules]\nallow_without_permission = ["git_push"]\n[policy]\nallowed_commands = ["git push origin main"]\n',
    );
    commit('first');
    stage = await startPostgresHubStage({
      database: 'team_policy',
      port: 'fixed',
      daemonEnv: { HOME: tmp },
      // The person's own say on this machine: git_push and writes in the project go through.
      beforeJoin: async ({ daemon }) => {
        for (const args of [
          ['git_push', '--tier', 'auto'],
          ['write_file', '--tier', 'auto', '--path', '**'],
        ]) {
          const r = await daemon.cli(['rules', 'add', ...args, '--any-action']);
          expect(r.code, r.stderr).toBe(0);
        }
        const trusted = await daemon.cli(['trust', project, '--yes']);
        expect(trusted.code, trusted.stderr).toBe(0);
      },
    });
    ({ hub, daemon, admin, databaseUrl: dbUrl } = stage);
  }, 120_000);
  afterAll(async () => {
    await stage?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('without a team policy the local rules let the push through (and it is performed)', async () => {
    const head = commit('second');
    const r = await bash('git push origin main');
    expect(r.decision).toBe('allow');
    expect(remoteHead(remote)).toBe(head);
    expect(await teamVersion()).toBe(0);
  });

  it('a team ask for git_push keeps asking whatever the user rule and the trusted file say', async () => {
    const added = await hubPolicy(
      'add',
      'git_push',
      '--tier',
      'ask',
      '--note',
      'pushes need a person',
    );
    pushRuleId = /team rule (tr-[a-z0-9]+)/.exec(added)![1]!;
    expect(await hubPolicy('publish')).toContain('version 1');
    await expect.poll(teamVersion, { timeout: 20_000 }).toBe(1);

    const before = remoteHead(remote);
    commit('third');
    const r = await bash('git push origin main');
    expect(r.decision).not.toBe('allow');
    expect(remoteHead(remote)).toBe(before);
    // The request waits for a person, and names the team policy version and its rule.
    const { requests } = await admin.call('pending.list', {});
    const asked = requests.find((x) => x.action === 'git_push');
    expect(asked?.rule).toBe(`team:v1:${pushRuleId}`);
    expect(asked?.ruleReason).toContain('team policy v1');
    // An agent's own request (the SDK) asks too: no local rule, grant or ladder makes it auto.
    const agent = await daemon.agent({ agent: 'builder', project });
    expect(
      await agent.classify({ action: 'git_push', command: 'git push origin main' }),
    ).toMatchObject({
      tier: 'ask',
      rule: `team:v1:${pushRuleId}`,
    });
    agent.close();
  });

  it('a person\'s approval still decides, once: approving "always" does not carry it further', async () => {
    const { requests } = await admin.call('pending.list', {});
    const asked = requests.find((x) => x.action === 'git_push')!;
    // The person approves the asked push for the whole session, and always.
    const approved = await daemon.cli(['approve', asked.requestId, '--scope', 'always']);
    expect(approved.code, approved.stderr).toBe(0);
    // The hook gave up waiting, so the approval left a late approval for exactly that push:
    // the agent's next identical call uses it, and is performed.
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: project,
      encoding: 'utf8',
    }).trim();
    expect((await bash('git push origin main')).decision).toBe('allow');
    expect(remoteHead(remote)).toBe(head);
    // The "always" rule it saved is the person's own: the team's ask outranks it next time.
    commit('fourth');
    const r = await bash('git push origin main');
    expect(r.decision).not.toBe('allow');
    expect(remoteHead(remote)).toBe(head);
  });

  it('the machine shows the version it runs: status, rules, audit', async () => {
    const status = await daemon.cli(['status']);
    expect(status.stdout).toMatch(
      /Team policy: version 1 \(published .*\): 1 enforced, 0 in shadow/,
    );
    const rules = await daemon.cli(['rules']);
    expect(rules.stdout).toContain('Team policy: version 1');
    expect(rules.stdout).toContain(pushRuleId);
    const { events } = await admin.call('audit.query', { type: 'team_policy.accepted' });
    expect(events.map((e) => e.data.version)).toEqual([1]);
    const joined = JSON.parse((await daemon.cli(['hub', 'status', '--json'])).stdout) as {
      state: { teamPolicy?: { version: number } };
    };
    expect(joined.state.teamPolicy?.version).toBe(1);
  });

  it('the agent cannot make a local rule outrank the team rule, even through the CLI', async () => {
    // The agent runs the CLI itself to add an `auto` rule; whatever Gatehouse says, the
    // call is performed when allowed, and the push still asks afterwards.
    await bash(
      `${process.execPath} ${CLI} rules add git_push --tier auto --command 'git push origin main' --any-action`,
    );
    const before = remoteHead(remote);
    const r = await bash('git push origin main');
    expect(r.decision).not.toBe('allow');
    expect(remoteHead(remote)).toBe(before);
  });

  it('the stored bundle is in the data folder: an agent writing to it is asked about', async () => {
    const db = join(daemon.home, 'gatehouse.db');
    const size = readFileSync(db).length;
    const w = await write(db, 'forged');
    expect(w.decision).not.toBe('allow');
    const b = await bash(
      `sqlite3 ${db} "UPDATE team_policy SET version = 0"; echo x >> ${join(daemon.home, 'gatehouse.db')}`,
    );
    expect(b.decision).not.toBe('allow');
    expect(readFileSync(db).length).toBeGreaterThanOrEqual(size);
    expect(await teamVersion()).toBe(1);
  });

  it('a shadow rule records what it would have decided; the hub counts it; enforced, it asks', async () => {
    const added = await hubPolicy(
      'add',
      'write_file',
      '--tier',
      'ask',
      '--path',
      'docs/**',
      '--shadow',
    );
    const shadowId = /team rule (tr-[a-z0-9]+)/.exec(added)![1]!;
    await hubPolicy('publish');
    await expect.poll(teamVersion, { timeout: 20_000 }).toBe(2);
    // Not enforced: the local rule lets both writes through, and they are performed.
    for (const name of ['a.md', 'b.md']) {
      const r = await write(join(project, 'docs', name), `# ${name}\n`);
      expect(r.decision).toBe('allow');
    }
    // A write the shadow rule does not cover is not recorded.
    expect((await write(join(project, 'src.txt'), 'x\n')).decision).toBe('allow');
    await expect
      .poll(
        async () => {
          const out = await hub.cli(['policy', 'shadow-report', '--rule', shadowId, '--json']);
          const report = JSON.parse(out.stdout || '{"counts":[]}') as {
            counts: { would: string; actual: string; count: number; machines: number }[];
          };
          return report.counts;
        },
        { timeout: 20_000 },
      )
      .toEqual([{ ruleId: shadowId, would: 'ask', actual: 'auto', count: 2, machines: 1 }]);
    const text = await hubPolicy('shadow-report', '--since', '7d');
    expect(text).toContain(`${shadowId}`);
    expect(text).toMatch(/laptop.* would ask, got auto: write_file .*docs\/a\.md/);
    // The admin turns it on: the next write there asks and is not performed.
    await hubPolicy('enforce', shadowId);
    await hubPolicy('publish');
    await expect.poll(teamVersion, { timeout: 20_000 }).toBe(3);
    const path = join(project, 'docs', 'c.md');
    expect((await write(path, '# c\n')).decision).not.toBe('allow');
    expect(() => readFileSync(path)).toThrow();
  });

  it('a team deny denies at once, with the version in the reason', async () => {
    await hubPolicy('add', 'git_push', '--tier', 'deny', '--pattern', 'git push --force:*');
    await hubPolicy('publish');
    await expect.poll(teamVersion, { timeout: 20_000 }).toBe(4);
    const r = await bash('git push --force origin main');
    expect(r.decision).toBe('deny');
    expect(r.reason).toContain('team policy v4');
    // Its audit entry names the team policy version and rule, decided by a rule, not a person.
    const { events } = await admin.call('audit.query', { type: 'request.filed' });
    const filed = events.find((e) => e.data.status === 'denied');
    expect(filed?.data).toMatchObject({
      action: 'git_push',
      status: 'denied',
      decidedBy: 'rule',
      rule: expect.stringMatching(/^team:v4:tr-/) as string,
    });
  });

  it('the admin lists and removes rules; a removed rule is gone from the machine at the next publish', async () => {
    const listed = JSON.parse(await hubPolicy('list', '--json')) as {
      rules: { ruleId: string; tier: string; commandPrefix?: string }[];
      published: { version: number };
      machines: { name: string; version: number }[];
    };
    expect(listed.published.version).toBe(4);
    // The hub knows which version each machine runs (it answered the bundle).
    expect(listed.machines).toEqual([{ name: 'laptop', version: 4 }]);
    const deny = listed.rules.find((r) => r.tier === 'deny')!;
    expect(deny.commandPrefix).toBe('git push --force');
    expect(await hubPolicy('list')).toMatch(/Published: version 4 .*\nMachines: laptop v4\n/);
    await hubPolicy('remove', deny.ruleId);
    await hubPolicy('publish');
    await expect.poll(teamVersion, { timeout: 20_000 }).toBe(5);
    // No longer denied; the team's ask for every push still holds, so it is not performed.
    const before = remoteHead(remote);
    const r = await bash('git push --force origin main');
    expect(r.reason ?? '').not.toContain('denied by team policy');
    expect(r.decision).not.toBe('allow');
    expect(remoteHead(remote)).toBe(before);
    const { requests } = await admin.call('pending.list', {});
    expect(
      requests.some(
        (x) => x.command === 'git push --force origin main' && x.rule.startsWith('team:v5:'),
      ),
    ).toBe(true);
  });

  it('a publish on another replica reaches the machine linked to this one (NOTIFY)', async () => {
    const second = await TestHub.start({ databaseUrl: dbUrl, sameHubAs: hub });
    try {
      const r = await second.cli(['policy', 'add', 'deploy', '--tier', 'deny']);
      expect(r.code, r.stderr).toBe(0);
      expect((await second.cli(['policy', 'publish'])).stdout).toContain('version 6');
      await expect.poll(teamVersion, { timeout: 20_000 }).toBe(6);
    } finally {
      await second.stop();
    }
  });
});
