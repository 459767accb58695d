import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceFileSync } from '../../../../shared/node/replace-file';

/**
 * Another process reads the file (JSON.parse, as `gatehouse hub status` reads the daemon's
 * link state) while this one rewrites it: how many of its reads found no whole document.
 */
async function brokenReads(file: string, write: (text: string) => void): Promise<number> {
  const reader = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs'); let bad = 0; const end = Date.now() + 1500;
       while (Date.now() < end) { try { JSON.parse(fs.readFileSync(${JSON.stringify(file)}, 'utf8')); } catch { bad++; } }
       console.log(bad);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  reader.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<void>((resolve) => reader.on('close', () => resolve()));
  const big = { items: Array.from({ length: 5000 }, (_, i) => `item ${i}`) };
  const end = Date.now() + 1500;
  let n = 0;
  while (Date.now() < end) {
    write(JSON.stringify({ ...big, n: n++ }));
    await new Promise((r) => setImmediate(r));
  }
  await done;
  return Number(out.trim());
}

describe('replaceFileSync', () => {
  let dir = '';
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gatehouse-replace-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('calibration: a reader catches writeFileSync with the file empty or half written', async () => {
    const file = join(dir, 'plain.json');
    writeFileSync(file, '{}');
    expect(await brokenReads(file, (t) => writeFileSync(file, t))).toBeGreaterThan(0);
  });

  it('never shows a reader in another process an empty or half file', async () => {
    const file = join(dir, 'state.json');
    replaceFileSync(file, '{}');
    expect(await brokenReads(file, (t) => replaceFileSync(file, t))).toBe(0);
  });

  it('writes the file 0600 and leaves no temporary file behind', () => {
    const file = join(dir, 'secret');
    writeFileSync(file, 'old', { mode: 0o644 });
    replaceFileSync(file, 'new\n');
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(() => statSync(`${file}.${process.pid}.tmp`)).toThrow();
  });
});
