import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { autostartEntry, setStartAtLogin, HIDDEN_FLAG } from '../../../../main/shell/login-item';
import { resolveNativeBinding } from '../../../../main/shell/native-binding';
import { ShellSettingsStore, type KeyValueStore } from '../../../../main/shell/shell-settings';

/** The Conf surface over a plain object, like electron-store keeps it in memory. */
class MemoryStore implements KeyValueStore {
  constructor(public data: Record<string, unknown> = {}) {}
  get store() {
    return structuredClone(this.data);
  }
  set(key: string, value: unknown) {
    this.data[key] = value;
  }
  delete(key: string) {
    delete this.data[key];
  }
}

describe('ShellSettingsStore', () => {
  it('gives defaults for an empty store: hidden start, no login item, no bounds', () => {
    expect(new ShellSettingsStore(new MemoryStore()).get()).toEqual({
      startAtLogin: false,
      startHidden: true,
    });
  });

  it('falls back per field on bad data and reports each bad field', () => {
    const problems: string[] = [];
    const store = new MemoryStore({
      startAtLogin: 'yes',
      startHidden: false,
      windowBounds: { width: 10, height: 500 },
    });
    const settings = new ShellSettingsStore(store, (key) => void problems.push(key)).get();
    expect(settings).toEqual({ startAtLogin: false, startHidden: false });
    expect(problems).toEqual(['windowBounds', 'startAtLogin']);
  });

  it('validates writes and keeps what was written', () => {
    const store = new MemoryStore();
    const settings = new ShellSettingsStore(store);
    settings.update({ startAtLogin: true });
    expect(store.data).toEqual({ startAtLogin: true, startHidden: true });
    expect(() => settings.update({ startHidden: 'no' as unknown as boolean })).toThrow();
    expect(settings.get().startHidden).toBe(true);
  });

  it('saves window bounds rounded, and ignores impossible ones', () => {
    const store = new MemoryStore();
    const bounds = new ShellSettingsStore(store).windowBounds();
    expect(bounds.load()).toBeUndefined();
    bounds.save({ x: 10.4, y: -3.6, width: 800.2, height: 600 });
    expect(bounds.load()).toEqual({ x: 10, y: -4, width: 800, height: 600 });
    bounds.save({ width: 50, height: 50 });
    expect(bounds.load()).toEqual({ x: 10, y: -4, width: 800, height: 600 });
  });
});

describe('start at login', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('uses the login item API on macOS and Windows, starting hidden', () => {
    const calls: unknown[] = [];
    for (const platform of ['darwin', 'win32'] as const) {
      setStartAtLogin(
        { platform, setLoginItemSettings: (s) => void calls.push(s), executable: '/x' },
        true,
      );
    }
    expect(calls).toEqual([
      { openAtLogin: true, args: [HIDDEN_FLAG] },
      { openAtLogin: true, args: [HIDDEN_FLAG] },
    ]);
  });

  it('writes and removes an XDG autostart entry on Linux', () => {
    const configHome = mkdtempSync(join(tmpdir(), 'gatehouse-autostart-'));
    dirs.push(configHome);
    const deps = {
      platform: 'linux' as const,
      setLoginItemSettings: () => {
        throw new Error('not on Linux');
      },
      executable: '/opt/Gate house/gatehouse',
      configHome,
    };
    const file = join(configHome, 'autostart', 'gatehouse.desktop');
    setStartAtLogin(deps, true);
    expect(readFileSync(file, 'utf8')).toContain('Exec="/opt/Gate house/gatehouse" --hidden\n');
    setStartAtLogin(deps, false);
    expect(existsSync(file)).toBe(false);
    setStartAtLogin(deps, false);
  });

  it('quotes the characters the Desktop Entry spec reserves', () => {
    expect(autostartEntry('/a/"b"/$c')).toContain('Exec="/a/\\"b\\"/\\$c" --hidden');
  });
});

describe('resolveNativeBinding', () => {
  const base = { resourcesPath: '/r', appPath: '/app', env: {} };

  it('prefers GATEHOUSE_SQLITE_BINDING', () => {
    expect(
      resolveNativeBinding({
        ...base,
        isPackaged: true,
        env: { GATEHOUSE_SQLITE_BINDING: '/custom.node' },
        exists: () => true,
      }),
    ).toBe('/custom.node');
  });

  it('uses the unpacked Electron build in a packaged app', () => {
    expect(resolveNativeBinding({ ...base, isPackaged: true, exists: () => true })).toBe(
      join('/r', 'app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
    );
  });

  it('uses build/electron-native in development, or nothing when it is missing', () => {
    expect(resolveNativeBinding({ ...base, isPackaged: false, exists: () => true })).toBe(
      join('/app', 'build/electron-native/better_sqlite3.node'),
    );
    expect(resolveNativeBinding({ ...base, isPackaged: false, exists: () => false })).toBe(
      undefined,
    );
  });
});
