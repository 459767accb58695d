import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types.
import { writeRelayImage } from '../../../scripts/relay-image.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PRODUCER = join(ROOT, 'scripts', 'relay-cache-producer.mjs');

interface Image {
  cacheBytes: number;
  problem?: string;
}
const write = writeRelayImage as (o: { relaySource: string; file: string; root: string }) => Image;

/**
 * The hook file the build writes (scripts/relay-image.mjs): a relay whose code cannot be
 * recorded still gets a hook file that runs it, without compiled code, and the build says why.
 */
describe('the hook file the build writes', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gatehouse-relay-image-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a relay that cannot be warmed up, without compiled code, and says why', () => {
    const file = join(dir, 'gatehouse-hook.cjs');
    // Prints its arguments: no runHookMain to warm up with.
    const relaySource =
      "require('node:fs').writeSync(1, 'relay ' + process.argv.slice(2).join(' '));";
    const image = write({ relaySource, file, root: ROOT });
    expect(image.cacheBytes).toBe(0);
    expect(image.problem).toMatch(
      /cannot record the relay's compiled code: TypeError: relay.runHookMain is not a function/,
    );
    expect(readFileSync(file, 'utf8')).toMatch(/^const build = "";$/m);
    expect(existsSync(join(dir, 'gatehouse-hook.cache'))).toBe(false);
    const run = spawnSync(process.execPath, [file, 'hook', 'claude-code'], { input: '{}' });
    expect(run.stdout.toString()).toBe('relay hook claude-code');
    expect(execFileSync(process.execPath, [PRODUCER, '--check', file]).toString()).toMatch(
      /none\n$/,
    );
  });
});
