import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Electron's app.setLoginItemSettings, which works on macOS and Windows only. */
export type SetLoginItem = (settings: { openAtLogin: boolean; args?: string[] }) => void;

export interface LoginItemDeps {
  platform: NodeJS.Platform;
  setLoginItemSettings: SetLoginItem;
  /** The command that starts the app: `$APPIMAGE` for an AppImage, else process.execPath. */
  executable: string;
  /** Default: `$XDG_CONFIG_HOME`, else ~/.config. */
  configHome?: string;
}

/** The flag a login start passes, so the app starts hidden to the tray whatever the settings. */
export const HIDDEN_FLAG = '--hidden';

/**
 * Starts Gatehouse at login, or stops doing so. macOS and Windows use the system's login
 * items; Linux has no Electron API for it, so it gets an XDG autostart entry.
 */
export function setStartAtLogin(deps: LoginItemDeps, enabled: boolean): void {
  if (deps.platform !== 'linux') {
    deps.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_FLAG] });
    return;
  }
  const configHome = deps.configHome ?? process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config');
  const dir = join(configHome, 'autostart');
  const file = join(dir, 'gatehouse.desktop');
  if (!enabled) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, autostartEntry(deps.executable), { mode: 0o644 });
}

/** An XDG autostart desktop entry; the Exec path is quoted per the Desktop Entry spec. */
export function autostartEntry(executable: string): string {
  const quoted = `"${executable.replace(/(["`$\\])/g, '\\$1')}"`;
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Gatehouse',
    'Comment=The human gate for AI agents',
    `Exec=${quoted} ${HIDDEN_FLAG}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}
