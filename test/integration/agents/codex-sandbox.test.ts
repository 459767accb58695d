import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ResponsesModelServer,
  type FunctionStep,
} from '../../support/model-server/openai-responses';
import {
  type AgentStage,
  closeAgentStage,
  installHook,
  openAgentStage,
  pendingWhileRunning,
} from '../../support/agent-e2e';
import { codexHomeFor, runCodexExec } from '../../support/codex-env';

/**
 * Defence in depth with the real Codex CLI: `gatehouse hook codex --install` also turns on
 * Codex's sandbox in its config.toml (workspace-write, no network). `codex exec` runs with
 * that config (no --sandbox flag) against a scripted Responses API; the person approves what
 * the hook asks, and Codex's sandbox (bubblewrap here) still refuses a write outside the
 * workspace and a connection, while a write in the workspace happens.
 */
describe('the real Codex CLI with the sandbox the install turns on', () => {
  let s: AgentStage<ResponsesModelServer>;
  let codexHome: string;
  let web: Server;
  let webHits = 0;
  // Outside the workspace and outside /tmp (which Codex's workspace-write leaves writable).
  const outside = `/var/tmp/gatehouse-codex-sandbox-${randomUUID()}`;
  // Codex makes its sandbox helper (codex-linux-sandbox) only under a CODEX_HOME outside /tmp
  // ("Refusing to create helper binaries under temporary dir"): without it bwrap cannot start.
  const codexRoot = `/var/tmp/gatehouse-codex-home-${randomUUID()}`;

  beforeAll(async () => {
    s = await openAgentStage(() => ResponsesModelServer.start());
    codexHome = codexHomeFor(codexRoot, s.model.url);
    const installed = await installHook(s, ['codex', '--install'], {
      CODEX_HOME: codexHome,
    });
    expect(installed.stdout).toMatch(/Turned on Codex's sandbox/);
    web = createServer((_req, res) => {
      webHits++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    rmSync(outside, { force: true });
    rmSync(codexRoot, { recursive: true, force: true });
    await new Promise((resolve) => web?.close(resolve));
    await closeAgentStage(s);
  });

  /** Runs one shell call under the config's sandbox; the person approves what the hook asks. */
  async function approved(cmd: string) {
    s.model.script([{ name: 'exec_command', arguments: { cmd } } satisfies FunctionStep]);
    // A flag of no consequence, so the helper adds no --sandbox: config.toml decides.
    const running = runCodexExec(s.daemon.env, s.p.home, codexHome, s.p.project, [
      '--color',
      'never',
    ]);
    const asked = await pendingWhileRunning(s.admin, running);
    await s.admin.call('decide', { requestId: asked.requestId, decision: 'approve' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    return s.model.outputs()[0]?.output ?? '';
  }

  it('writes the sandbox settings into config.toml and keeps what was there', () => {
    const text = readFileSync(join(codexHome, 'config.toml'), 'utf8');
    expect(text).toMatch(/^sandbox_mode = "workspace-write"$/m);
    expect(text).toMatch(/^\[sandbox_workspace_write\]\nnetwork_access = false$/m);
    expect(text).toContain('[model_providers.scripted]');
  });

  it('an approved write outside the workspace is refused by the sandbox', async () => {
    const output = await approved(`echo pwned > ${outside}`);
    console.log(`codex sandbox write outside: ${JSON.stringify(output.slice(0, 400))}`);
    expect(existsSync(outside)).toBe(false);
    expect(output).toMatch(/Read-only file system/);
  });

  it('an approved connection is refused by the sandbox (no network)', async () => {
    const port = (web.address() as AddressInfo).port;
    const output = await approved(`curl -sS -m 5 http://127.0.0.1:${port}/`);
    expect(webHits).toBe(0);
    expect(output).not.toContain('reached');
    expect(output).not.toContain('codex-linux-sandbox: No such file');
  });

  it('calibration: an approved write in the workspace happens', async () => {
    const output = await approved('echo ok > inside.txt');
    console.log(`codex sandbox write inside: ${JSON.stringify(output.slice(0, 400))}`);
    expect(readFileSync(join(s.p.project, 'inside.txt'), 'utf8')).toBe('ok\n');
  });
});
