import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Spawns a process and resolves once it prints `readyText`. */
export function startProcess(args, env, readyText) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const log = process.env.BENCH_DAEMON_LOG;
    const onData = (d) => {
      if (log) appendFileSync(log, d);
      out += d;
      if (out.includes(readyText)) resolve(proc);
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', (d) => {
      if (log) appendFileSync(log, d);
      out += d;
    });
    proc.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

/** Node options for the daemon from BENCH_DAEMON_NODE_ARGS (`--cpu-prof --cpu-prof-dir=…`, `--trace-gc`). */
function daemonNodeArgs() {
  return (process.env.BENCH_DAEMON_NODE_ARGS ?? '').split(' ').filter(Boolean);
}

/**
 * A real `gatehouse daemon` on a temporary home, with the event-loop stall probe loaded
 * (loop-stall-probe.mjs): `longestStallMs()` is the longest stall since its previous call.
 * `execArgv` goes to node before the daemon's file (`--cpu-prof`, say).
 */
export async function startDaemon({ execArgv = daemonNodeArgs(), env: extraEnv = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const stallFile = join(dir, 'stall.json');
  const env = {
    GATEHOUSE_HOME: join(dir, 'home'),
    GATEHOUSE_SOCKET: join(dir, 'agent.sock'),
    BENCH_STALL_FILE: stallFile,
    ...extraEnv,
  };
  const proc = await startProcess(
    [
      ...execArgv,
      ...probeImport(),
      join(ROOT, 'dist/cli/gatehouse.js'),
      'daemon',
      '--no-dashboard',
    ],
    env,
    'gatehouse: ready',
  );
  return {
    env,
    dir,
    pid: proc.pid,
    socketPath: env.GATEHOUSE_SOCKET,
    /** The daemon's longest event-loop stall (ms) since the previous call (or its start). */
    longestStallMs: stallReader(proc, stallFile),
    async stop() {
      proc.removeAllListeners('exit');
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc; undefined where there
 * is no /proc. Linux counts it in ticks of 10 ms, so read it over runs of a second or more.
 */
export function cpuTimeMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** The loop-stall probe's report, asked for by SIGUSR2 (loop-stall-probe.mjs). */
function stallReader(proc, stallFile) {
  let seq = 0;
  return async () => {
    proc.kill('SIGUSR2');
    for (;;) {
      await new Promise((r) => setTimeout(r, 5));
      try {
        const report = JSON.parse(readFileSync(stallFile, 'utf8'));
        if (report.seq > seq) {
          seq = report.seq;
          return report.maxMs;
        }
      } catch {
        // not written yet, or being written
      }
    }
  };
}

const probeImport = () => [
  '--import',
  pathToFileURL(join(ROOT, 'bench/lib/loop-stall-probe.mjs')).href,
];

/**
 * The bare echo server; with `workUs`, it spins that long per call before answering; with
 * `durable`, it answers each call only once a row for it is committed to SQLite (see
 * echo-server.mjs). Its longest event-loop stall (`longestStallMs()`) is the machine's share
 * of a daemon's: what the load of other processes alone brings on this run.
 */
export async function startEcho(workUs = 0, { durable = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-echo-'));
  const path = join(dir, 'echo.sock');
  const stallFile = join(dir, 'stall.json');
  const proc = await startProcess(
    [
      ...probeImport(),
      join(ROOT, 'bench/lib/echo-server.mjs'),
      path,
      String(workUs),
      ...(durable ? [join(dir, 'calls.db')] : []),
    ],
    { BENCH_STALL_FILE: stallFile },
    'echo: ready',
  );
  return {
    socketPath: path,
    pid: proc.pid,
    longestStallMs: stallReader(proc, stallFile),
    async stop() {
      proc.removeAllListeners('exit');
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
