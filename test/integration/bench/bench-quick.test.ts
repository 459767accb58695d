/**
 * Every benchmark runs: each bench/*.bench.mjs (and one folder down) as a real
 * child process in quick mode (BENCH_QUICK=1: a fraction of a second per measurement, targets
 * printed but not enforced), so a change that breaks a benchmark fails here, not months later
 * in `npm run bench`. Run one after another: they start daemons and load the machine.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/daemon';

const BENCH_DIR = join(ROOT, 'bench');
const benches = readdirSync(BENCH_DIR, { recursive: true, encoding: 'utf8' })
  .map((f) => f.split('\\').join('/'))
  .filter((f) => f.endsWith('.bench.mjs') && f.split('/').length <= 2)
  .sort();

function runQuick(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, file)], {
      cwd: ROOT,
      env: { ...process.env, BENCH_QUICK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('every benchmark runs in quick mode', () => {
  it('finds the benchmarks', () => {
    expect(benches).toEqual(
      expect.arrayContaining([
        'breaker.bench.mjs',
        'decision-latency.bench.mjs',
        'flood.bench.mjs',
        'guards/check-cost.bench.mjs',
        'hook-latency.bench.mjs',
        'notify-latency.bench.mjs',
        'rule-suggestions.bench.mjs',
        'scale.bench.mjs',
        'session-detail.bench.mjs',
        'socket.bench.mjs',
        'transcript-archive.bench.mjs',
        'transcript-recovery.bench.mjs',
      ]),
    );
  });

  for (const file of benches) {
    it(`${file} runs to its end and prints its figures`, { timeout: 60_000 }, async () => {
      const r = await runQuick(file);
      expect(r.stderr + r.stdout, `${file} failed`).not.toMatch(/TypeError|Could not resolve/);
      expect(r.code, `${file} exited ${r.code}:\n${r.stdout}\n${r.stderr}`).toBe(0);
      // Figures: at least one measured number with its unit.
      expect(r.stdout).toMatch(/\d+(\.\d+)? ?(ms|µs|us|calls\/s|req\/s|x|×)/);
      // A bench with targets says it ran in quick mode, so none silently ran a full run here.
      if (readFileSync(join(BENCH_DIR, file), 'utf8').includes('settleTargets('))
        expect(r.stdout).toContain('quick mode: targets');
    });
  }
});
