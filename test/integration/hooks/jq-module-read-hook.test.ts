import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { bashDenyingAsks } from '../../support/claude-hook';
import { daemonPerDescribe, type TestDaemon } from '../../support/daemon';

const SECRET = 'DOCKER-SECRET-5150';

/**
 * A jq program's `import "x" as $d;` reads `x.json` and prints it with `$d`. Gatehouse asked
 * for `import` or `include` followed by whitespace and `"`, but jq's lexer skips a comment
 * there: `import #c⏎"../.docker/config" as $d; $d` printed ~/.docker/config.json, auto-allowed,
 * while `cat ../.docker/config.json` asks (jq 1.6 takes a path from the working directory, one
 * `../` at most: the project is ~/app, or the line does `cd ~` first). The program is now read
 * as jq's lexer reads it, comments of every jq version set aside: an `import`, `include` or
 * `modulemeta` anywhere in its code asks. The same for yq (python yq runs jq), and for jq's
 * `--rawfile NAME FILE`, whose FILE is now one of the call's paths.
 */
describe('jq: a comment between import and its path (real hook, real daemon)', () => {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-jq-home-')));
  const project = join(home, 'app');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, '.docker'));
  writeFileSync(
    join(home, '.docker/config.json'),
    `{"auths":{"r.example":{"auth":"${SECRET}"}}}\n`,
  );
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  let daemon: TestDaemon;
  let admin: AdminClient;
  daemonPerDescribe(
    (d, a) => {
      daemon = d;
      admin = a;
    },
    { HOME: home },
  );
  const run = (command: string) =>
    bashDenyingAsks({
      env: { ...daemon.env, GATEHOUSE_HOOK_WAIT_MS: '10000' },
      admin,
      cwd: project,
      session: 'jq-module-read',
    })(command);
  const bash = (command: string) =>
    spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;

  it.each([
    `jq -n $'import #c\\n"../.docker/config" as $d; $d'`,
    `yq -n $'import #c\\n"../.docker/config" as $d; $d'`,
    `cd ${home} && jq -n $'import #c\\n".docker/config" as $d; $d'`,
    // A `"` in a comment does not start a string (a real line break inside single quotes).
    `jq -n '# a "\nimport "../.docker/config" as $d; $d'`,
    `jq -n --rawfile d ../.docker/config.json '$d'`,
  ])('%s prints the config when run, and asks', async (command) => {
    // Calibration: bash runs it and it prints the secret.
    expect(bash(command)).toContain(SECRET);
    const r = await run(command);
    expect(r.decision).toBe('deny');
    expect(r.printed).not.toContain(SECRET);
  });

  it('an everyday jq or yq filter still goes ahead', async () => {
    writeFileSync(join(project, 'data.json'), '{"import":1,"kind":"include"}\n');
    for (const command of [
      "jq '.import, .kind' data.json",
      `jq -r '.[] | select(. == "include")' data.json`,
      "yq '.kind' data.json",
    ]) {
      const r = await run(command);
      expect(r.decision, command).toBe('allow');
      expect(r.printed, command).toContain('include');
    }
  });
});
