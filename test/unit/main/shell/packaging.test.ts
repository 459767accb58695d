import { getCurrentFuseWire, FuseV1Options } from '@electron/fuses';
// @electron/fuses 1.8 (its 2.x needs Node 22.12) keeps FuseState out of its index.
import { FuseState } from '@electron/fuses/dist/constants';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrayImage } from '../../../../main/shell/tray-model';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const require = createRequire(import.meta.url);

interface AfterPack {
  (context: object): Promise<void>;
  GATEHOUSE_FUSES: Record<string, boolean>;
}
const afterPack = require(join(root, 'scripts/after-pack.cjs')) as AfterPack;

/** electron-builder's own loader pieces: YAML parsing and its JSON-schema validation. */
const { load: parseYaml } = require('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (on: boolean) => unknown };

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * A stand-in Electron executable: filler bytes around the fuse wire exactly as Electron lays
 * it out (sentinel, wire version 1, wire length, one byte per fuse), with Electron 38's
 * defaults: RunAsNode, NODE_OPTIONS, --inspect, file privileges and wasm on; the rest off.
 */
function fakeElectron(file: string): void {
  const wire = Buffer.from('101100011', 'ascii');
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.alloc(4096, 0x90),
      Buffer.from(SENTINEL, 'ascii'),
      Buffer.from([1, wire.length]),
      wire,
      Buffer.alloc(4096, 0x90),
    ]),
  );
}

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('afterPack fuses', () => {
  it('flips the fuses of the packed Linux executable and leaves the others alone', async () => {
    const appOutDir = mkdtempSync(join(tmpdir(), 'gatehouse-pack-'));
    dirs.push(appOutDir);
    const exe = join(appOutDir, 'gatehouse');
    fakeElectron(exe);
    await afterPack({
      electronPlatformName: 'linux',
      arch: 1,
      appOutDir,
      packager: { appInfo: { productFilename: 'Gatehouse' }, executableName: 'gatehouse' },
    });
    const wire = (await getCurrentFuseWire(exe)) as unknown as Record<number, FuseState>;
    const on = FuseState.ENABLE;
    const off = FuseState.DISABLE;
    expect(wire[FuseV1Options.RunAsNode]).toBe(off);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(off);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(off);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(on);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(on);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(on);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(on);
    // Electron 38's ninth fuse, newer than @electron/fuses 1.8's names for them.
    const wasmTrapHandlers = 8;
    expect(wire[wasmTrapHandlers]).toBe(on);
    expect(wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]).toBe(off);
  });

  it('fails the build when the binary has no fuse wire', async () => {
    const appOutDir = mkdtempSync(join(tmpdir(), 'gatehouse-pack-'));
    dirs.push(appOutDir);
    writeFileSync(join(appOutDir, 'Gatehouse.exe'), Buffer.alloc(1024));
    await expect(
      afterPack({
        electronPlatformName: 'win32',
        arch: 1,
        appOutDir,
        packager: { appInfo: { productFilename: 'Gatehouse' }, executableName: 'gatehouse' },
      }),
    ).rejects.toThrow(/sentinel/);
  });
});

describe('electron-builder.yml', () => {
  const config = parseYaml(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<
    string,
    Record<string, unknown> & unknown[]
  >;

  it("passes electron-builder's schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('builds every target of the issue, rebuilds the native module and flips fuses', () => {
    expect(config.appId).toBe('dev.gatehouse.app');
    expect(config.productName).toBe('Gatehouse');
    expect(config.linux!.target).toEqual(['AppImage', 'deb']);
    expect(config.mac!.target).toBe('dmg');
    expect(config.win!.target).toBe('nsis');
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(true);
    expect(config.asarUnpack).toEqual(['**/node_modules/better-sqlite3/build/Release/*.node']);
    expect(existsSync(join(root, String(config.afterPack)))).toBe(true);
    for (const platform of ['linux', 'mac', 'win']) {
      expect(existsSync(join(root, String(config[platform]!.icon)))).toBe(true);
    }
  });
});

describe('assets', () => {
  /** Width and height from a PNG's IHDR, after checking the signature. */
  const pngSize = (file: string) => {
    const b = readFileSync(file);
    expect(b.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(b.toString('ascii', 12, 16)).toBe('IHDR');
    return [b.readUInt32BE(16), b.readUInt32BE(20)];
  };

  it('has a 16 px and a 32 px (@2x) tray picture for every tray state', () => {
    const images: TrayImage[] = ['idle', 'pending', 'breaker', 'paused'];
    for (const image of images) {
      expect(pngSize(join(root, `assets/tray-${image}.png`))).toEqual([16, 16]);
      expect(pngSize(join(root, `assets/tray-${image}@2x.png`))).toEqual([32, 32]);
    }
  });

  it('has a 512 px app icon', () => {
    expect(pngSize(join(root, 'assets/icon.png'))).toEqual([512, 512]);
  });
});
