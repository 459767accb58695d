import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMainEntryPoints } from '../../../../clients/cli/load-main';

/**
 * The CLI runs the daemon and the hub from main/'s own bundle, found beside the CLI's file
 * (a folder below dist/), never through the environment or the working directory.
 */
describe("the CLI's loader of main/'s bundle", () => {
  let dist: string;
  let cliFile: string;
  beforeEach(() => {
    dist = mkdtempSync(join(tmpdir(), 'gatehouse-load-main-'));
    mkdirSync(join(dist, 'cli-main'));
    mkdirSync(join(dist, 'main'));
    cliFile = pathToFileURL(join(dist, 'cli-main', 'gatehouse.js')).href;
  });
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it('loads the entry points from dist/main/cli-entry.js beside the running file', async () => {
    writeFileSync(
      join(dist, 'main', 'cli-entry.js'),
      'export const cliEntryPoints = { daemon: async (o) => (o.dashboard ? 11 : 12), hub: async (o) => Number(o.port) };\n',
    );
    const main = await loadMainEntryPoints(cliFile);
    expect(await main.daemon({ dashboard: false })).toBe(12);
    expect(await main.hub({ port: '7', bind: '127.0.0.1' })).toBe(7);
  });

  it('looks only beside the running file, not in the working directory', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'gatehouse-load-main-cwd-'));
    mkdirSync(join(elsewhere, 'main'));
    writeFileSync(
      join(elsewhere, 'main', 'cli-entry.js'),
      'export const cliEntryPoints = { daemon: async () => 99, hub: async () => 99 };\n',
    );
    const cwd = process.cwd();
    try {
      process.chdir(join(elsewhere, 'main'));
      await expect(loadMainEntryPoints(cliFile)).rejects.toThrow(
        /cannot load the daemon's bundle .*node scripts\/build\.mjs/,
      );
    } finally {
      process.chdir(cwd);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses a file there that is not the bundle', async () => {
    writeFileSync(
      join(dist, 'main', 'cli-entry.js'),
      'export const cliEntryPoints = { daemon: 1 };\n',
    );
    await expect(loadMainEntryPoints(cliFile)).rejects.toThrow(/is not the daemon's bundle/);
  });
});
