/**
 * An auth flood: another local process sending wrong `auth` calls as fast as it
 * can, over one connection after another, must not lock the person out. The throttle judges
 * each attempt by its own peer process once a flood is under way, so the flooder gets -32004
 * and `gatehouse status` still answers at once. Also: the CLI exits at once after a failed
 * `auth`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, TestDaemon } from '../../support/daemon';

/** A separate process that sends wrong tokens until killed, then prints its tally. */
const FLOODER = `
const net = require('node:net');
const tally = { unauthorized: 0, throttled: 0, other: 0, connections: 0 };
let stopped = false;
process.on('SIGTERM', () => { stopped = true; console.log(JSON.stringify(tally)); process.exit(0); });
function round() {
  if (stopped) return;
  tally.connections++;
  const s = net.connect(process.argv[1]);
  let buf = '';
  let id = 0;
  const send = () => s.write(JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'auth', params: { token: 'x'.repeat(64) } }) + '\\n');
  s.on('connect', () => { for (let i = 0; i < 5; i++) send(); });
  s.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\\n')) >= 0) {
      const m = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      const code = m.error && m.error.code;
      if (code === -32001) tally.unauthorized++;
      else if (code === -32004) tally.throttled++;
      else tally.other++;
    }
  });
  s.on('error', () => {});
  s.on('close', () => setImmediate(round));
}
for (let i = 0; i < 4; i++) round();
`;

let d: TestDaemon;
beforeAll(async () => {
  d = await TestDaemon.start({}, ['--no-dashboard']);
});
afterAll(async () => {
  await d.stop();
});

describe('an auth flood from another process', () => {
  it('throttles the flooder while the person’s CLI is answered at once', async () => {
    const flooder = spawn(process.execPath, ['-e', FLOODER, d.socketPath], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    flooder.stdout.on('data', (b: Buffer) => (out += b.toString()));
    try {
      await new Promise((r) => setTimeout(r, 1500)); // the shared bucket is long empty
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const status = await d.cli(['status', '--json']);
        const ms = performance.now() - started;
        expect(status.stderr).toBe('');
        expect(status.code).toBe(0);
        expect(JSON.parse(status.stdout)).toHaveProperty('pending');
        expect(ms).toBeLessThan(5000);
      }
    } finally {
      const exited = new Promise((r) => flooder.once('exit', r));
      flooder.kill('SIGTERM');
      await exited;
    }
    const tally = JSON.parse(out) as { unauthorized: number; throttled: number };
    // The flooder's own guesses were mostly refused uncompared.
    expect(tally.throttled).toBeGreaterThan(tally.unauthorized);
    expect(tally.unauthorized).toBeLessThan(100);
  });
});

describe('a failed auth in the CLI', () => {
  it('prints the error and exits at once, not after the daemon’s 30 s hello timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-wrong-token-'));
    try {
      const home = join(dir, 'home');
      mkdirSync(home, { mode: 0o700 });
      writeFileSync(join(home, 'admin.token'), 'not-the-token\n', { mode: 0o600 });
      const started = performance.now();
      const r = await runCli({ ...d.env, GATEHOUSE_HOME: home }, ['status']);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/unauthorized/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
