import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { TestDaemon } from '../../support/daemon';

/**
 * What a new user trips over in the first hour with the CLI, each case through
 * the built CLI against a real daemon.
 */
describe('the CLI in the first hour (real daemon)', () => {
  let d: TestDaemon;
  let agent: GatehouseClient;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    agent = await d.agent({ agent: 'builder', project: '/work/p' });
  });
  afterAll(async () => {
    agent.close();
    await d.stop();
  });

  const queue = async (description: string, extra: Record<string, unknown> = {}) => {
    const answer = await agent.request({ action: 'deploy', description, wait: false, ...extra });
    expect(answer.status).toBe('queued');
    return answer.requestId;
  };

  /** A usage error: exit 4, the reason in one line, then where the help is; no full help. */
  const expectUsageError = (r: { code: number; stderr: string; stdout: string }, hint: string) => {
    expect(r.code).toBe(4);
    // What was wrong, commander's "Did you mean …?" when it has one, where the help is.
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines.at(-1)).toBe(`(see \`${hint} --help\`)`);
    expect(r.stderr + r.stdout).not.toContain('Usage:');
  };

  it('names the option and what it wants for a value that is not a number, and exits 4', async () => {
    const id = await queue('deploy with bad minutes');
    const minutes = await d.cli(['approve', id, '--minutes', 'abc']);
    expectUsageError(minutes, 'gatehouse approve');
    expect(minutes.stderr).toMatch(/'--minutes <n>' argument 'abc' is invalid/);
    expect(minutes.stderr).toContain('expected a number of minutes greater than 0, e.g. 30');
    expect(minutes.stderr).not.toContain('null');
    const spend = await d.cli(['approve', id, '--max-spend', '-3']);
    expect(spend.code).toBe(4);
    expect(spend.stderr).toContain('an amount of US dollars greater than 0');
    const uses = await d.cli(['approve', id, '--uses', '2x']);
    expect(uses.code).toBe(4);
    expect(uses.stderr).toContain('expected a whole number');
    expect(JSON.parse((await d.cli(['show', id, '--json'])).stdout).status).toBe('pending');
  });

  it('exits 4 for a value outside the choices, with one line and a hint', async () => {
    const id = await queue('deploy with a bad scope');
    const r = await d.cli(['approve', id, '--scope', 'forever']);
    expectUsageError(r, 'gatehouse approve');
    expect(r.stderr).toContain('Allowed choices are once, session, always');
  });

  it('answers an unknown option with one line and a hint, not the whole help', async () => {
    const r = await d.cli(['list', '--bogus']);
    expectUsageError(r, 'gatehouse list');
    expect(r.stderr).toContain("unknown option '--bogus'");
    expectUsageError(
      await d.cli(['rules', 'add', 'deploy', '--tire', 'auto']),
      'gatehouse rules add',
    );
  });

  it('prints its version', async () => {
    const r = await d.cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('accepts quiet hours written 9:00 and stores them as 09:00', async () => {
    const set = await d.cli(['config', 'set', 'notifications.quietHours.start', '9:00']);
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout.trim()).toBe('notifications.quietHours.start = "09:00"');
    const get = await d.cli(['config', 'get', 'notifications.quietHours.start']);
    expect(JSON.parse(get.stdout)).toBe('09:00');
    const bad = await d.cli(['config', 'set', 'notifications.quietHours.end', '25:00']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('e.g. 9:00 or 22:30');
  });

  it('says what --tier wants when rules add lacks it', async () => {
    const r = await d.cli(['rules', 'add', 'create_pull_request']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('rules add needs --tier: --tier auto');
    expect(r.stderr).toContain('--tier ask');
    expect(JSON.parse((await d.cli(['rules', 'list', '--json'])).stdout)).toEqual([]);
  });

  it('refuses an unknown action name, suggests the closest, and takes one an agent has used', async () => {
    const typo = await d.cli(['rules', 'add', 'git_psh', '--tier', 'auto']);
    expect(typo.code).toBe(4);
    expect(typo.stderr).toContain('unknown action "git_psh" (did you mean git_push?)');
    expect(typo.stderr).toContain('send_email');
    expect(JSON.parse((await d.cli(['rules', 'list', '--json'])).stdout)).toEqual([]);
    const forced = await d.cli(['rules', 'add', 'train_model', '--tier', 'ask', '--any-action']);
    expect(forced.code).toBe(0);
    await agent.request({ action: 'tag_release', description: 'tag v2', wait: false });
    const seen = await d.cli(['rules', 'add', 'tag_release', '--tier', 'auto']);
    expect(seen.code).toBe(0);
    expect(seen.stdout).toContain('tag_release → auto');
    expect((await d.cli(['rules', 'add', 'git_push', '--tier', 'ask'])).code).toBe(0);
  });

  it('does not claim to resume an agent that was never paused', async () => {
    const nobody = await d.cli(['resume', 'nobody']);
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toContain('no agent named nobody has connected or been paused');
    expect(nobody.stdout).not.toContain('resumed');
    const running = await d.cli(['resume', 'builder']);
    expect(running.code).toBe(0);
    expect(running.stdout.trim()).toBe('builder: was not paused; nothing to resume');
    expect((await d.cli(['pause', 'ghost'])).stdout.trim()).toBe('ghost: paused');
    const ghost = await d.cli(['resume', 'ghost']);
    expect(ghost.code).toBe(0);
    expect(ghost.stdout.trim()).toBe('ghost: resumed');
  });

  it('says what an approval with an envelope and conditions granted', async () => {
    // An action of its own: the envelope lets later identical actions through.
    const id = await queue('restart staging with an envelope', { action: 'restart_service' });
    const r = await d.cli([
      'approve',
      id,
      '--minutes',
      '30',
      '--uses',
      '5',
      '--condition',
      'only to staging',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(
      `${id}: approved (once); the same restart_service is also allowed for 30 min or 5 more uses, whichever ends first; on condition: only to staging`,
    );
  });

  it('logs decisions newest first by decision, in local time with ages and ellipses', async () => {
    const long = `deploy the first build ${'with a very long description '.repeat(3)}`;
    const first = await queue(long);
    const second = await queue('deploy the second build');
    expect((await d.cli(['deny', second, '--reason', 'not now'])).code).toBe(0);
    expect((await d.cli(['approve', first])).code).toBe(0);
    const log = await d.cli(['log']);
    expect(log.code).toBe(0);
    const rows = log.stdout.split('\n').filter((l) => l.includes('deploy the'));
    expect(rows[0]).toContain('deploy the first build');
    expect(rows[1]).toContain('deploy the second build');
    expect(rows[0]).toContain('…');
    expect(log.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    expect(log.stdout).toMatch(/\d\d:\d\d:\d\d +(just now|\d+ s ago)/);
    const audit = await d.cli(['log', '--audit']);
    expect(audit.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    expect(audit.stdout).toMatch(/just now|s ago/);
  });

  it('shows the hook context as labelled lines, and the raw JSON with --json', async () => {
    const id = await queue('Bash: npm run deploy', {
      command: 'npm run deploy',
      context: {
        tool: 'Bash',
        cwd: '/work/p',
        permissionMode: 'default',
        alsoAsking: ['run_command'],
      },
    });
    const show = await d.cli(['show', id]);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/normal urgency, filed \d\d:\d\d:\d\d, (just now|\d+ s ago)\)/);
    expect(show.stdout).toContain('Command:     npm run deploy');
    expect(show.stdout).toContain('Tool:        Bash');
    expect(show.stdout).toContain('Working dir: /work/p');
    expect(show.stdout).toContain('Also asks:   run_command');
    expect(show.stdout).not.toContain('{"tool"');
    const raw = JSON.parse((await d.cli(['show', id, '--json'])).stdout);
    expect(raw.context).toEqual({
      tool: 'Bash',
      cwd: '/work/p',
      permissionMode: 'default',
      alsoAsking: ['run_command'],
    });
  });
});
