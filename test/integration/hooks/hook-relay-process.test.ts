import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHookCommand } from '../../../clients/hooks/install/hook-command';
import { CLI, ROOT, runNode, TestDaemon, type CliResult } from '../../support/daemon';

/**
 * The hook process itself (dist/hook/gatehouse-hook.cjs, what installs now run), beyond what
 * it answers (hook-claude-code.test.ts): that the answered path stays light, and that every
 * way its connection or its own files can fail still ends in an answer that does not let the
 * call through.
 */
const RELAY = join(dirname(CLI), '..', 'hook', 'gatehouse-hook.cjs');
const OFFLINE = join(dirname(RELAY), 'gatehouse-hook-offline.cjs');
const CACHE = join(dirname(RELAY), 'gatehouse-hook.cache');

/** What the hook file did with its compiled code when loaded: used, rejected or none. */
const codeCacheOf = (file: string): string =>
  execFileSync(
    process.execPath,
    [join(ROOT, 'scripts', 'relay-cache-producer.mjs'), '--check', file],
    { env: { ...process.env, NODE_OPTIONS: '' } },
  )
    .toString()
    .trim();

function runRelay(
  env: NodeJS.ProcessEnv,
  input: unknown,
  relay = RELAY,
  agent = 'claude-code',
): Promise<CliResult> {
  return runNode(relay, ['hook', agent], env, JSON.stringify(input));
}

const read = (file: string, id: string) => ({
  session_id: 'relay-process',
  cwd: ROOT,
  hook_event_name: 'PreToolUse',
  tool_name: 'Read',
  tool_input: { file_path: file },
  tool_use_id: id,
});
const decision = (r: CliResult): string =>
  (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } })
    .hookSpecificOutput.permissionDecision;

describe('the hook process', () => {
  let d: TestDaemon;
  let dir: string;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-relay-'));
  });
  afterAll(async () => {
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a call Gatehouse allows without loading net, the shell parser or other adapters', async () => {
    const report = join(dir, 'loaded.cjs');
    writeFileSync(
      report,
      // Through the fd: process.stderr itself would load net.
      `process.on('exit', () => require('node:fs').writeSync(2, 'LOADED ' + JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) }) + '\\n'));\n`,
    );
    const r = await runRelay(
      { ...d.env, NODE_EXTRA_CA_CERTS: '', NODE_OPTIONS: `--require ${report}` },
      read(join(ROOT, 'README.md'), 'toolu_light'),
    );
    expect(r.code).toBe(0);
    expect(decision(r)).toBe('allow');
    const loaded = JSON.parse(/LOADED (.*)/.exec(r.stderr)![1]!) as {
      builtins: string[];
      files: string[];
    };
    expect(loaded.builtins).not.toContain('NativeModule net');
    expect(loaded.builtins).toContain('Internal Binding pipe_wrap');
    expect(loaded.files.map((f) => f.split('/').pop())).toEqual([
      'loaded.cjs',
      'gatehouse-hook.cjs',
    ]);
  });

  it('takes net instead, and answers the same, where Node would warn about its bindings', async () => {
    const r = await runRelay(
      { ...d.env, NODE_OPTIONS: '--pending-deprecation' },
      read(join(ROOT, 'README.md'), 'toolu_net'),
    );
    expect(r.code).toBe(0);
    expect(decision(r)).toBe('allow');
    expect(r.stderr).not.toMatch(/DeprecationWarning/);
  });

  it('reads the payload and prints the answer as well on non-blocking stdin and stdout', async () => {
    // Node gives a child blocking stdio; another agent may not. python3 (on every machine of
    // this project) makes fds 0 and 1 non-blocking, then runs the hook in its place.
    const payload = JSON.stringify(read(join(ROOT, 'README.md'), 'toolu_nb'));
    const child = spawn(
      'python3',
      [
        '-c',
        'import os, sys; os.set_blocking(0, False); os.set_blocking(1, False); os.execv(sys.argv[1], sys.argv[1:])',
        process.execPath,
        RELAY,
        'hook',
        'claude-code',
      ],
      { env: d.env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const code = new Promise<number | null>((r) => child.on('close', r));
    // Half now, half a moment later: a read in between finds nothing yet (EAGAIN), and the
    // answer must not depend on where the payload was cut.
    child.stdin.write(payload.slice(0, 40));
    setTimeout(() => child.stdin.end(payload.slice(40)), 100);
    expect(await code).toBe(0);
    expect(decision({ code: 0, stdout, stderr: '' })).toBe('allow');
  });

  it('answers the fallback when Gatehouse closes the connection before answering', async () => {
    const sockets: Socket[] = [];
    // A stand-in that reads the hello and the call, then hangs up: a daemon going away.
    const closing = createServer((s) => {
      sockets.push(s);
      s.once('data', () => s.end());
    });
    const path = join(dir, 'closing.sock');
    await new Promise<void>((r) => closing.listen(path, r));
    try {
      const r = await runRelay(
        { ...process.env, GATEHOUSE_SOCKET: path, GATEHOUSE_HOOK_FALLBACK: 'deny' },
        read('/etc/hostname', 'toolu_closed'),
      );
      expect(r.code).toBe(0);
      expect(decision(r)).toBe('deny');
      expect(r.stderr).toMatch(/connection to Gatehouse closed/);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => closing.close(r));
    }
  });

  it('denies when Gatehouse is unreachable and the offline table cannot be loaded', async () => {
    // The relay without its offline file beside it: a broken install.
    const broken = mkdtempSync(join(dir, 'broken-'));
    copyFileSync(RELAY, join(broken, 'gatehouse-hook.cjs'));
    const env = { ...process.env, GATEHOUSE_SOCKET: join(dir, 'nothing-here.sock') };
    const readme = read(join(ROOT, 'README.md'), 'toolu_offline');
    // With its offline file, the built-in table allows a read inside the project...
    const whole = await runRelay(env, readme);
    expect(decision(whole)).toBe('allow');
    // ...without it, nothing can judge the call, so it is denied.
    const r = await runRelay(env, readme, join(broken, 'gatehouse-hook.cjs'));
    expect(r.code).toBe(0);
    expect(decision(r)).toBe('deny');
    expect(r.stderr).toMatch(/cannot reach Gatehouse/);
  });
  it('runs on the code the build compiled for it, which V8 takes', () => {
    expect(codeCacheOf(RELAY)).toBe('used');
  });

  it('runs on its compiled code as installed, also when the agent sets V8 flags in NODE_OPTIONS', () => {
    // The installed command, with the hook's own run swapped for the cache check under the
    // same assignments, run by a shell as the agent runs it, in an environment that sets a
    // V8 flag (with which V8 refuses code compiled without it).
    const installed = defaultHookCommand('claude-code', {}, {}, CLI);
    const hookRun = `${process.execPath} ${RELAY} hook claude-code`;
    expect(installed.endsWith(hookRun)).toBe(true);
    const producer = join(ROOT, 'scripts', 'relay-cache-producer.mjs');
    const check = (command: string) =>
      execFileSync('/bin/sh', ['-c', command], {
        env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=4096' },
      })
        .toString()
        .trim();
    const checkRun = `${process.execPath} ${producer} --check ${RELAY}`;
    expect(check(installed.replace(hookRun, checkRun))).toBe('used');
    // Without the command's assignments the same environment makes V8 refuse it.
    expect(check(checkRun)).toBe('rejected');
  });

  it("answers the same when V8 refuses the compiled code or it is not this build's: other bytes, cut short, another build, none", async () => {
    const built = readFileSync(RELAY, 'utf8');
    const image = readFileSync(CACHE);
    const id = /^const build = "([0-9a-f]+)";$/m.exec(built)![1]!;
    expect(image.subarray(0, id.length).toString('latin1')).toBe(id);
    const cache = image.subarray(id.length);
    expect(cache.length).toBeGreaterThan(1000);
    const withId = (bytes: Buffer) => Buffer.concat([Buffer.from(id, 'latin1'), bytes]);
    // Another build's id in front of this build's cache: V8 would take it (it checks only
    // the source's length), so the hook file must not hand it over.
    const otherId = id.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const variants: [string, Buffer | undefined][] = [
      ['used', image],
      ['rejected', withId(randomBytes(cache.length))],
      ['rejected', withId(cache.subarray(0, Math.floor(cache.length / 2)))],
      ['other-build', Buffer.concat([Buffer.from(otherId, 'latin1'), cache])],
      ['other-build', Buffer.alloc(0)],
      ['missing', undefined],
    ];
    let n = 0;
    for (const [state, bytes] of variants) {
      const copy = mkdtempSync(join(dir, 'cache-'));
      const file = join(copy, 'gatehouse-hook.cjs');
      copyFileSync(RELAY, file);
      if (bytes) writeFileSync(join(copy, 'gatehouse-hook.cache'), bytes);
      copyFileSync(OFFLINE, join(copy, 'gatehouse-hook-offline.cjs'));
      expect(codeCacheOf(file)).toBe(state);
      const r = await runRelay(d.env, read(join(ROOT, 'README.md'), `toolu_cache_${n++}`), file);
      expect(r.code).toBe(0);
      expect(decision(r)).toBe('allow');
      expect(r.stderr).toBe('');
    }
  });
});
