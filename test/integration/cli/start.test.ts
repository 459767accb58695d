import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/daemon';

/** Starts a command, waits for `gatehouse: ready`, sends `signal`, returns output and exit code. */
async function startAndStop(args: string[], signal: NodeJS.Signals) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-start-'));
  const env = {
    ...process.env,
    GATEHOUSE_HOME: join(dir, 'home'),
    GATEHOUSE_SOCKET: join(dir, 'agent.sock'),
    // Not the fixed default port: tests run side by side.
    GATEHOUSE_DASHBOARD_PORT: '0',
  };
  const child = spawn(process.execPath, args, { env, cwd: ROOT });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never ready:\n${out}`)), 20_000);
      const check = () => out.includes('gatehouse: ready') && (clearTimeout(timer), resolve());
      child.stdout.on('data', check);
      void exited.then(() => reject(new Error(`exited early:\n${out}`)));
    });
    child.kill(signal);
    return { code: await exited, out };
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('starting Gatehouse', () => {
  it('npm start says in one line why it runs headless, prints socket and dashboard, stops on SIGTERM', async () => {
    const { code, out } = await startAndStop([join(ROOT, 'dist/main/start.js')], 'SIGTERM');
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^gatehouse: starting headless mode: /);
    expect(out).toMatch(/listening on .*agent\.sock/);
    expect(out).toMatch(/dashboard at http:\/\/127\.0\.0\.1:\d+\/#secret=/);
    expect(code).toBe(0);
  });

  it('gatehouse daemon stops cleanly on SIGINT', async () => {
    const { code, out } = await startAndStop(
      [join(ROOT, 'dist/cli/gatehouse.js'), 'daemon', '--no-dashboard'],
      'SIGINT',
    );
    expect(out).toContain('SIGINT received, stopping');
    expect(out).not.toContain('dashboard at');
    expect(code).toBe(0);
  });

  it('every command has help text', async () => {
    const { runCli } = await import('../../support/daemon');
    const top = await runCli(process.env, ['--help']);
    const commands = [...top.stdout.matchAll(/^ {2}([a-z-]+)/gm)]
      .map((m) => m[1]!)
      // Options (`--hub <url>`, `-V`) are listed at the same indent as the commands.
      .filter((c) => c !== 'help' && !c.startsWith('-'));
    expect(commands).toEqual(
      expect.arrayContaining([
        'daemon',
        'status',
        'list',
        'approve',
        'deny',
        'review',
        'log',
        'sessions',
        'summary',
        'rules',
        'pause',
        'resume',
        'config',
      ]),
    );
    // Four CLIs at a time: thirty-odd commands one after another outlast the test's time on
    // a busy two-core machine.
    const queue = [...commands];
    const worker = async (): Promise<void> => {
      for (let c = queue.shift(); c !== undefined; c = queue.shift()) {
        const r = await runCli(process.env, [c, '--help']);
        expect(r.code, c).toBe(0);
        expect(r.stdout, c).toMatch(/Usage: gatehouse/);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }, 90_000);
});
