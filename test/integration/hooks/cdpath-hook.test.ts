import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';

const SECRET = 'cdpath-secret-41c9';

/**
^ * Environment the shell reads: with CDPATH in the agent's environment (the hook
 * has the same), `cd name` goes to the first CDPATH folder holding `name`, not to ./name.
 * Gatehouse resolves `cd` through the CDPATH the hook reports. Real hook processes against
 * a real daemon, default settings; an allowed call is performed by bash with that CDPATH,
 * and what it printed is checked.
 */
describe('cd through an inherited CDPATH (real hook, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let token: string;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-cdpath-')));
  const project = join(dir, 'project');
  const outside = join(dir, 'outside');

  beforeAll(async () => {
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'src/a.txt'), 'project file\n');
    mkdirSync(join(outside, 'notes'), { recursive: true });
    writeFileSync(join(outside, 'notes/a.txt'), `${SECRET}\n`);
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    token = readFileSync(join(d.home, 'admin.token'), 'utf8').trim();
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The hook's decision with CDPATH in its environment; an allowed call is performed. */
  async function run(command: string, cdpath: string) {
    const r = await runClaudeHook(
      {
        ...d.env,
        CDPATH: cdpath,
        GATEHOUSE_HOOK_WAIT_MS: '100',
        GATEHOUSE_HOOK_FALLBACK: 'deny',
      },
      preToolUse('Bash', { command }, { cwd: project, session: 'cdpath' }),
    );
    let printed = '';
    if (r.decision === 'allow')
      printed = spawnSync('bash', ['-c', command], {
        cwd: project,
        env: { ...process.env, CDPATH: cdpath },
        encoding: 'utf8',
      }).stdout;
    return { decision: r.decision, printed };
  }

  it("cd into Gatehouse's own folder through CDPATH asks; denied, nothing is read", async () => {
    const r = await run(`cd ${basename(d.home)} && cat admin.token`, dirname(d.home));
    expect(r.decision).toBe('deny');
    expect(r.printed).not.toContain(token);
  });

  it('cd to a folder outside the project through CDPATH asks', async () => {
    for (const cdpath of [outside, `:${outside}`, `/nonexistent:${outside}`]) {
      const r = await run('cd notes && cat a.txt', cdpath);
      expect({ cdpath, ...r }).toEqual({ cdpath, decision: 'deny', printed: '' });
    }
  });

  it('cd to a project folder no CDPATH folder holds stays auto (bash goes to ./src)', async () => {
    const r = await run('cd src && cat a.txt', outside);
    expect(r).toEqual({ decision: 'allow', printed: 'project file\n' });
  });

  it('calibration: bash does follow CDPATH (no hook)', () => {
    const out = spawnSync('bash', ['-c', 'cd notes >/dev/null && cat a.txt'], {
      cwd: project,
      env: { ...process.env, CDPATH: outside },
      encoding: 'utf8',
    }).stdout;
    expect(out).toBe(`${SECRET}\n`);
  });
});
