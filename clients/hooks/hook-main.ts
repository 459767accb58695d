/**
 * The hook relay's own entry (dist/hook/gatehouse-hook.js): `hook <agent>` with a payload on
 * stdin. The CLI entry hands `gatehouse hook <agent>` (no options) straight here, so a hook
 * process loads this small bundle — the adapter, the socket client — and nothing of
 * commander, zod, the shell parser or the daemon (see scripts/build.mjs).
 */
import { isAgentKind } from '../../shared/tools/agent-kinds';
import { runHook } from './adapter/relay';
import { HOOK_ADAPTERS } from './adapters';

export async function runHookMain(agent: string): Promise<void> {
  const load = isAgentKind(agent) ? HOOK_ADAPTERS[agent] : undefined;
  if (!load) {
    process.stderr.write(
      `gatehouse: no hook for "${agent}" (known: ${Object.keys(HOOK_ADAPTERS).join(', ')})\n`,
    );
    process.exitCode = 3;
    return;
  }
  await runHook(await load());
}

const [command, agent, ...rest] = process.argv.slice(2);
if (command === 'hook' && agent && rest.length === 0) void runHookMain(agent);
