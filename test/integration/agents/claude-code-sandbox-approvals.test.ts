import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicModelServer, type ToolStep } from '../../support/model-server/anthropic';
import {
  type AgentStage,
  closeAgentStage,
  git,
  installHook,
  openAgentStage,
  pendingWhileRunning,
} from '../../support/agent-e2e';
import { runClaude } from '../../support/claude-cli';
import { GitDaemon } from '../../support/git-daemon';

/**
 * Who may leave Claude Code's sandbox, with the real Claude Code CLI, its sandbox on
 * (bubblewrap and socat, scripts/install-test-deps.sh) as `gatehouse hook claude-code
 * --install` writes it, and a remote that is only reachable over the network (`git daemon`
 * on 127.0.0.1). A call a person approved runs outside the sandbox (the hook answers with
 * `updatedInput.dangerouslyDisableSandbox: true`), so the approved push lands; a call let
 * through by anything else (here a project policy file, which the agent may have written)
 * stays in it and finds no network; and the agent's own `dangerouslyDisableSandbox: true`
 * asks a person, named as such. Every effect is checked where it lands: the remote's ref,
 * the git daemon's and the web server's access logs.
 */
describe("the real Claude Code CLI: only a person's approval leaves the sandbox", () => {
  let s: AgentStage<AnthropicModelServer>;
  let remote: GitDaemon;
  let web: Server;
  let webHits: string[];
  let webUrl: string;

  beforeAll(async () => {
    s = await openAgentStage(() => AnthropicModelServer.start());
    const installed = await installHook(s, ['claude-code', '--install']);
    expect(installed.stdout).toMatch(/Turned on Claude Code's sandbox/);
    remote = await GitDaemon.serve(s.p.remote);
    git(s.p.project, 'remote', 'set-url', 'origin', remote.url);
    webHits = [];
    web = createServer((req, res) => {
      webHits.push(req.url ?? '');
      res.end('reached');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await remote?.stop();
    await new Promise((resolve) => (web ? web.close(resolve) : resolve(undefined)));
    await closeAgentStage(s);
  });

  function claude(steps: ToolStep[]) {
    const { daemon, model, p } = s;
    model.script(steps);
    return runClaude({ cwd: p.project, home: p.home, modelUrl: model.url, env: daemon.env });
  }

  it('an approved git push over the network lands on the remote', async () => {
    const head = s.p.commit('approved over the network');
    const running = claude([{ name: 'Bash', input: { command: 'git push origin main' } }]);
    const asked = await pendingWhileRunning(s.admin, running, 'git_push');
    expect(s.p.remoteHead()).not.toBe(head);
    await s.admin.call('decide', { requestId: asked.requestId, decision: 'approve' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/Sandbox disabled|WITHOUT sandboxing/);
    const [result] = s.model.toolResults();
    console.log(`approved push: ${JSON.stringify(result?.text.slice(0, 300))}`);
    expect(s.p.remoteHead(), result?.text).toBe(head);
    expect(remote.pushes()).toBe(1);
  });

  it('an edited push runs outside the sandbox as edited: only the edited branch lands', async () => {
    const before = s.p.remoteHead();
    const head = s.p.commit('edited over the network');
    git(s.p.project, 'branch', '-f', 'edited', head);
    const running = claude([{ name: 'Bash', input: { command: 'git push origin main' } }]);
    const asked = await pendingWhileRunning(s.admin, running, 'git_push');
    await s.admin.call('decide', {
      requestId: asked.requestId,
      decision: 'approve',
      edit: { input: { command: 'git push origin edited' } },
    });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    // The edited push reached the network remote, so it ran outside the sandbox; main did not move.
    expect(git(s.p.remote, 'rev-parse', 'refs/heads/edited'), s.model.toolResults()[0]?.text).toBe(
      head,
    );
    expect(s.p.remoteHead()).toBe(before);
  });

  it('an edit Gatehouse cannot read through runs inside the sandbox: no token, no network', async () => {
    const token = readFileSync(join(s.daemon.home, 'admin.token'), 'utf8').trim();
    const running = claude([{ name: 'Bash', input: { command: `curl -sS -m 5 ${webUrl}/asked` } }]);
    const asked = await pendingWhileRunning(s.admin, running);
    // The person (not the agent) edits it into a read of the admin token through a command
    // substitution, and a fetch: judged as edited, its paths are opaque, so the answer keeps
    // the sandbox on. (Named plainly, Claude Code's own deny rules refuse it before it runs.)
    const edited = `cat "$(printf %s ${s.daemon.home})/admin.token"; curl -sS -m 5 ${webUrl}/edited`;
    await s.admin.call('decide', {
      requestId: asked.requestId,
      decision: 'approve',
      edit: { input: { command: edited }, confirmRiskier: true },
    });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    const [result] = s.model.toolResults();
    console.log(`edited into a token read: ${JSON.stringify(result?.text.slice(0, 400))}`);
    // It ran (the edited command: curl's own error), in the sandbox: no token, no network.
    expect(result?.text).toMatch(/curl: \(\d+\)/);
    expect(result?.text ?? '').not.toContain(token);
    expect(webHits).not.toContain('/asked');
    expect(webHits).not.toContain('/edited');
  });

  describe('with a trusted project policy file that lets pushes and fetches through', () => {
    beforeAll(async () => {
      // The agent proposed it; the person trusted the file, not any one call.
      writeFileSync(
        join(s.p.project, '.gatehouse.toml'),
        '[rules]\nallow_without_permission = ["git_push", "web_fetch"]\n',
      );
      const { project } = await s.admin.call('trust.preview', { dir: s.p.project });
      await s.admin.call('trust.add', { dir: s.p.project, sha256: project.sha256! });
    });

    it('an auto-tier push is let through by Gatehouse and refused by the sandbox', async () => {
      const before = s.p.remoteHead();
      s.p.commit('auto-tier push');
      const pushesBefore = remote.pushes();
      const run = await claude([{ name: 'Bash', input: { command: 'git push origin main' } }]);
      expect(run.code, run.stderr).toBe(0);
      const [result] = s.model.toolResults();
      console.log(`auto-tier push in the sandbox: ${JSON.stringify(result?.text.slice(0, 300))}`);
      // Nobody was asked: the file let it through, so it ran, sandboxed, with no network.
      expect((await s.admin.call('pending.list', {})).requests).toEqual([]);
      expect(result?.text).toMatch(/unable to connect|Could not|fatal/i);
      expect(s.p.remoteHead()).toBe(before);
      expect(remote.pushes()).toBe(pushesBefore);
    });

    it('a curl to 127.0.0.1 the file promoted never reaches the server', async () => {
      const run = await claude([
        { name: 'Bash', input: { command: `curl -sS -m 5 ${webUrl}/promoted` } },
      ]);
      expect(run.code, run.stderr).toBe(0);
      const [result] = s.model.toolResults();
      console.log(`promoted curl in the sandbox: ${JSON.stringify(result?.text.slice(0, 200))}`);
      expect(result?.text).toMatch(/curl: \(\d+\)/);
      expect(webHits).not.toContain('/promoted');
    });

    it("the agent's own dangerouslyDisableSandbox asks a person, and a denial stops it", async () => {
      const running = claude([
        {
          name: 'Bash',
          input: { command: `curl -sS -m 5 ${webUrl}/escape`, dangerouslyDisableSandbox: true },
        },
      ]);
      const asked = await pendingWhileRunning(s.admin, running);
      expect(asked).toMatchObject({
        action: 'leave_sandbox',
        rule: 'protected:leave_sandbox',
        risk: 'critical',
      });
      expect(asked.ruleReason).toMatch(/outside Claude Code's sandbox/);
      await s.admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
      const run = await running;
      expect(run.code, run.stderr).toBe(0);
      expect(s.model.toolResults()[0]?.isError).toBe(true);
      expect(webHits).not.toContain('/escape');
    });

    it('the same call, approved by the person, runs outside the sandbox', async () => {
      const running = claude([
        {
          name: 'Bash',
          input: { command: `curl -sS -m 5 ${webUrl}/approved`, dangerouslyDisableSandbox: true },
        },
      ]);
      const asked = await pendingWhileRunning(s.admin, running);
      expect(asked.rule).toBe('protected:leave_sandbox');
      await s.admin.call('decide', { requestId: asked.requestId, decision: 'approve' });
      const run = await running;
      expect(run.code, run.stderr).toBe(0);
      expect(s.model.toolResults()[0]?.text).toContain('reached');
      expect(webHits).toContain('/approved');
    });
  });
});
