import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/** Runs git in `cwd` as a person with a name would (commits need one), and expects it to succeed. */
export function gitIn(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}
