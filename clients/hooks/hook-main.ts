/**
 * The hook relay's own entry: `hook <agent>` with a payload on stdin. The hook process
 * (dist/hook/gatehouse-hook.cjs, see scripts/relay-image.mjs) runs this bundle — the adapter,
 * the socket client — and nothing of commander, zod, the shell parser or the daemon (see
 * scripts/build.mjs).
 */
import { isAgentKind } from '../../shared/tools/agent-kinds';
import { runHook } from '../../shared/node/hooks/relay/relay';
import { HOOK_ADAPTERS } from '../../shared/node/hooks/adapters';

// The build runs the relay once on a sample of each agent (scripts/relay-cache-producer.mjs)
// to record the code it compiles: it drives them through these.
export { HOOK_ADAPTERS, runHook };

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
