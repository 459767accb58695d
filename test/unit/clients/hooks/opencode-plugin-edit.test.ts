import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { opencodePluginSource } from '../../../../clients/hooks/opencode/plugin-source';

/**
 * The plugin Gatehouse writes for OpenCode, loaded as OpenCode loads it and run with a relay
 * that is a real shell printing a given answer: an approved edit replaces the contents of the
 * very args object OpenCode then executes (the real-CLI proof is opencode-cli.test.ts's edited
 * push); tools whose args OpenCode reads before the hook refuse an edit rather than run their
 * own call.
 */
type Hook = (
  input: { tool: string; sessionID: string; callID: string },
  output: { args: Record<string, unknown> },
) => Promise<void>;

const dir = mkdtempSync(join(tmpdir(), 'gh-oc-plugin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let loaded = 0;
/** The plugin's tool.execute.before hook, with a relay answering `answer`. */
async function hookAnswering(answer: unknown): Promise<Hook> {
  return (await pluginAnswering(answer))['tool.execute.before']!;
}

/** The plugin's hooks, by name, with a relay answering `answer`. */
async function pluginAnswering(answer: unknown): Promise<Record<string, Hook>> {
  loaded += 1;
  const answerFile = join(dir, `answer-${loaded}.json`);
  writeFileSync(answerFile, JSON.stringify(answer));
  const command = `cat >/dev/null; cat '${answerFile}'`;
  const file = join(dir, `plugin-${loaded}.mjs`);
  writeFileSync(file, opencodePluginSource(command, 1000));
  const mod = (await import(pathToFileURL(file).href)) as {
    Gatehouse: (ctx: { client: unknown; directory: string }) => Promise<Record<string, Hook>>;
  };
  return mod.Gatehouse({ client: {}, directory: dir });
}

const call = (tool: string) => ({ tool, sessionID: 'ses_1', callID: 'call_1' });

describe("the OpenCode plugin's answer to an edited call", () => {
  it('replaces every key of the args object OpenCode runs with, keeping the object', async () => {
    const hook = await hookAnswering({
      decision: 'allow',
      reason: 'approved as edited',
      args: { command: 'git push origin feature' },
    });
    const args: Record<string, unknown> = {
      command: 'git push origin main',
      description: 'Push main',
      workdir: '/elsewhere',
    };
    const output = { args };
    await hook(call('bash'), output);
    expect(output.args).toBe(args);
    expect(args).toEqual({ command: 'git push origin feature' });
  });

  it('leaves the args as they are on a plain allow, and throws on a deny without touching them', async () => {
    const args = { command: 'git push origin main' };
    await (
      await hookAnswering({ decision: 'allow', reason: 'ok' })
    )(call('bash'), { args });
    expect(args).toEqual({ command: 'git push origin main' });
    const deny = await hookAnswering({
      decision: 'deny',
      reason: 'no',
      args: { command: 'git push origin feature' },
    });
    await expect(deny(call('bash'), { args })).rejects.toThrow('no');
    expect(args).toEqual({ command: 'git push origin main' });
  });

  it('refuses an edit of a tool whose args OpenCode has read before the hook', async () => {
    const hook = await hookAnswering({
      decision: 'allow',
      reason: 'approved as edited',
      args: { server: 'docs', uri: 'file:///other' },
    });
    for (const tool of ['read_mcp_resource', 'list_mcp_resources', 'list_mcp_resource_templates']) {
      const args = { server: 'docs', uri: 'file:///asked' };
      await expect(hook(call(tool), { args })).rejects.toThrow(/cannot run here/);
      expect(args).toEqual({ server: 'docs', uri: 'file:///asked' });
    }
  });

  it("adds a person's approval note to that call's output, once, and to no other call's", async () => {
    const hooks = await pluginAnswering({
      decision: 'allow',
      reason: 'approved',
      note: 'Gatehouse: approved by human: push once',
    });
    const before = hooks['tool.execute.before']!;
    const after = hooks['tool.execute.after'] as unknown as (
      input: { tool: string; sessionID: string; callID: string },
      output: { output: string },
    ) => Promise<void>;
    await before(call('bash'), { args: { command: 'git push origin main' } });
    const other = { output: 'other output' };
    await after({ ...call('bash'), callID: 'call_2' }, other);
    expect(other.output).toBe('other output');
    const output = { output: 'To remote.git' };
    await after(call('bash'), output);
    expect(output.output).toBe('To remote.git\n\nGatehouse: approved by human: push once');
    await after(call('bash'), output);
    expect(output.output).toBe('To remote.git\n\nGatehouse: approved by human: push once');
  });
});
