import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { TestDaemon } from '../../support/daemon';
import { homeTree } from '../../support/hook-home';

/**
 * A person who sets GATEHOUSE_HUB_TOKEN in their shell (it overrides `gatehouse hub login`'s
 * file, which agents cannot read) hands it to every agent started from that shell, and the
 * token approves requests on the hub. A command naming it, or printing the whole environment
 * while the agent's holds it, must ask. Real hook processes (with the token in their
 * environment, as the agent's commands have it) against a real daemon; every call the hook
 * allows is then run with bash in that environment, and what it printed is checked for the
 * token.
 */
const { root, home, data, project } = homeTree('gatehouse-secret-variables-');
const TOKEN = 'ghp-hub-token-7f3a9c2e5b1d4086';
let d: TestDaemon;
let admin: AdminClient;
let hookEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'README.md'), 'hello\n');
  d = await TestDaemon.start({ HOME: home, GATEHOUSE_HOME: data }, ['--no-dashboard']);
  admin = await d.admin();
  hookEnv = {
    ...d.env,
    HOME: home,
    GATEHOUSE_HOOK_WAIT_MS: '100',
    GATEHOUSE_HOOK_FALLBACK: 'deny',
  };
}, 60_000);

afterAll(async () => {
  admin?.close();
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

const withToken = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...env,
  GATEHOUSE_HUB_TOKEN: TOKEN,
});

/** What the command prints run with bash in the project, in the agent's environment. */
const perform = (command: string, env: NodeJS.ProcessEnv): string =>
  spawnSync('bash', ['-c', command], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: home, ...env },
    encoding: 'utf8',
  }).stdout;

/** The hook's decision in `env`; the call run when it was allowed, and whether it printed the token. */
async function attempt(command: string, env: NodeJS.ProcessEnv) {
  const r = await runClaudeHook(env, preToolUse('Bash', { command }, { cwd: project }));
  const printed = r.decision === 'allow' ? perform(command, env) : '';
  return { decision: r.decision, reason: r.reason, leaked: printed.includes(TOKEN) };
}

const naming = [
  'echo $GATEHOUSE_HUB_TOKEN',
  'echo "${GATEHOUSE_HUB_TOKEN}"',
  'printenv GATEHOUSE_HUB_TOKEN',
  'printenv GATEHOUSE_HUB_TOK""EN',
  'cat <<< "$GATEHOUSE_HUB_TOKEN"',
  "printenv GATEHOUSE_HUB_TOK$'E'N",
];
const dumping = [
  'env',
  'printenv',
  'env | grep HUB',
  'export -p',
  'declare -p',
  'set',
  'env -0',
  // A name bash spells out only as the line runs.
  "printenv GATEHOUSE_HUB_TOK$'\\x45'N",
  // jq's env and $ENV hold every variable; a name put together is never written out.
  'jq -n env',
  "jq -n '$ENV'",
  'jq -rn \'env["GATEHOUSE_HUB_" + "TOKEN"]\'',
];

describe("Gatehouse's secret variables in the agent's environment (real hook, real daemon)", () => {
  it('calibration: run without the hook, each command prints the token', () => {
    for (const command of [...naming, ...dumping])
      expect(perform(command, withToken({})), command).toContain(TOKEN);
  });

  it.each([...naming, ...dumping])(
    '%s asks, critical, and the token is not printed',
    async (command) => {
      const a = await attempt(command, withToken(hookEnv));
      expect(a.leaked).toBe(false);
      expect(a.decision, a.reason).toBe('deny');
      const { requests } = await admin.call('requests.query', { limit: 100 });
      expect(requests.find((r) => r.command === command)).toMatchObject({
        rule: 'protected:gatehouse_secret',
        risk: 'critical',
        ruleReason: expect.stringMatching(/GATEHOUSE_HUB_TOKEN, Gatehouse's own secret/),
      });
    },
  );

  it('without the token in the environment, printing it stays an everyday read', async () => {
    for (const command of ['env | grep HOME', 'printenv', 'export -p', 'jq -n env']) {
      const a = await attempt(command, hookEnv);
      expect(a.decision, `${command}: ${a.reason}`).toBe('allow');
    }
    // With it, other variables are read as before.
    const home = await attempt('echo $HOME', withToken(hookEnv));
    expect(home.decision, home.reason).toBe('allow');
  });

  it('with Gatehouse down, the offline table denies them too', async () => {
    const down = withToken({
      ...hookEnv,
      GATEHOUSE_SOCKET: join(root, 'down/nobody.sock'),
      GATEHOUSE_HOOK_FALLBACK: 'builtin',
    });
    for (const command of ['echo $GATEHOUSE_HUB_TOKEN', 'env']) {
      const a = await attempt(command, down);
      expect(a.leaked, command).toBe(false);
      expect(a.decision, `${command}: ${a.reason}`).toBe('deny');
    }
    const ok = await attempt('cat README.md', down);
    expect(ok.decision, ok.reason).toBe('allow');
  }, 60_000);
});
