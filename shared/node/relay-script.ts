import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The hook relay's own file (dist/hook/gatehouse-hook.cjs) beside the launcher `script`
 * (dist/cli/gatehouse.js, or a link to it such as npm's bin); undefined when there is none.
 * The installer writes it into hook commands; the daemon guards the folder it is in.
 */
export function relayScriptBeside(script: string): string | undefined {
  try {
    const relay = join(dirname(realpathSync(script)), '..', 'hook', 'gatehouse-hook.cjs');
    return existsSync(relay) ? relay : undefined;
  } catch {
    return undefined;
  }
}
