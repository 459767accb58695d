import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ResponsesModelServer,
  type FunctionStep,
} from '../../support/model-server/openai-responses';
import {
  type AgentStage,
  closeAgentStage,
  decidePush,
  installHook,
  openAgentStage,
} from '../../support/agent-e2e';
import { codexHomeFor, runCodexExec } from '../../support/codex-env';

/**
 * The real Codex CLI (0.169.0, pinned in test/agents/package.json) with the Gatehouse hooks in
 * the repository's `.codex/hooks.json` (`gatehouse hook codex --install --project DIR`) and
 * none in the user's CODEX_HOME: Codex runs a repository's hooks only once the project is
 * trusted in the user's config.toml, which the install note says how to do.
 */
describe("the real Codex CLI with the Gatehouse hooks in the repository's .codex/", () => {
  let s: AgentStage<ResponsesModelServer>;
  let codexHome: string;
  /** The lines the install note tells the person to add to config.toml to trust the project. */
  let trustLines: string[];

  beforeAll(async () => {
    s = await openAgentStage(() => ResponsesModelServer.start());
    codexHome = codexHomeFor(s.p.home, s.model.url);
    const installed = await installHook(s, ['codex', '--install', '--project', s.p.project], {
      CODEX_HOME: codexHome,
    });
    const hooksFile = join(s.p.project, '.codex', 'hooks.json');
    expect(installed.stdout).toContain(
      `Installed the Gatehouse hooks (PreToolUse, Stop, SessionEnd) in ${hooksFile}`,
    );
    expect(existsSync(join(codexHome, 'hooks.json'))).toBe(false);
    expect(installed.stdout).toMatch(
      /loads a repository's \.codex\/ hooks only when the project is trusted/,
    );
    expect(installed.stdout).toContain(join(codexHome, 'config.toml'));
    trustLines = installed.stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('[projects.') || line === 'trust_level = "trusted"');
    expect(trustLines).toEqual([`[projects."${s.p.project}"]`, 'trust_level = "trusted"']);
  });

  afterAll(() => closeAgentStage(s));

  function codex(steps: FunctionStep[]) {
    s.model.script(steps);
    return runCodexExec(s.daemon.env, s.p.home, codexHome, s.p.project);
  }

  const push: FunctionStep = { name: 'exec_command', arguments: { cmd: 'git push origin main' } };

  it('in an untrusted project Codex skips the hooks: the push lands unguarded (the install note is true)', async () => {
    const head = s.p.commit('untrusted');
    const run = await codex([push]);
    expect(run.code, run.stderr).toBe(0);
    // Even with --dangerously-bypass-hook-trust, the untrusted project's .codex/ is not read.
    expect(s.p.remoteHead()).toBe(head);
    expect((await s.admin.call('pending.list', {})).requests).toEqual([]);
    expect((await s.admin.call('sessions.list', { agent: 'codex' })).sessions).toEqual([]);
  });

  it('once the project is trusted as the note says, a push waits for a person and lands when approved', async () => {
    appendFileSync(join(codexHome, 'config.toml'), `\n${trustLines.join('\n')}\n`);
    s.p.commit('trusted');
    const run = await decidePush(s.admin, s.p, codex([push]), 'approve');
    expect(run.code, run.stderr).toBe(0);
    const { sessions } = await s.admin.call('sessions.list', { agent: 'codex' });
    expect(sessions).toHaveLength(1);
    console.log(`codex project hooks e2e: approved push in ${run.seconds.toFixed(1)} s`);
  });

  it('in the trusted project a denied push never lands, and Codex is told why', async () => {
    s.p.commit('denied');
    const run = await decidePush(s.admin, s.p, codex([push]), 'deny', 'not from this repository');
    expect(run.code, run.stderr).toBe(0);
    const [output] = s.model.outputs();
    expect(output?.output).toContain('not from this repository');
    expect(readFileSync(join(codexHome, 'config.toml'), 'utf8')).toContain(trustLines[0]);
    console.log(`codex project hooks e2e: denied push in ${run.seconds.toFixed(1)} s`);
  });
});
