import { readHookConfig } from './hook-config';
import { defaultHookCommand, installIntoSettings, uninstallFromSettings } from './install';

export interface HookInstallFlags {
  install?: boolean;
  uninstall?: boolean;
  project?: string;
  permissionRequest?: boolean;
  command?: string;
}

/** Claude Code's default hook timeout; ours stays at least this and above the wait. */
const MIN_TIMEOUT_SEC = 60;
const TIMEOUT_MARGIN_SEC = 10;

/** `gatehouse hook claude-code --install|--uninstall`. Returns the exit code. */
export function runHookInstall(o: HookInstallFlags): number {
  if (o.install && o.uninstall) {
    console.error('gatehouse: choose one of --install and --uninstall');
    return 4;
  }
  const target = o.project ? { project: o.project } : {};
  try {
    if (o.uninstall) {
      console.log(uninstallFromSettings(target));
      return 0;
    }
    const { waitMs } = readHookConfig(process.env);
    const timeoutSec = Math.max(MIN_TIMEOUT_SEC, Math.ceil(waitMs / 1000) + TIMEOUT_MARGIN_SEC);
    console.log(
      installIntoSettings(target, {
        command: o.command ?? defaultHookCommand(),
        timeoutSec,
        gateEvent: o.permissionRequest ? 'PermissionRequest' : 'PreToolUse',
      }),
    );
    return 0;
  } catch (error) {
    console.error(`gatehouse: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
