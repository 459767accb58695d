import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { AGENT_KINDS, isAgentKind } from '../../shared/tools/agent-kinds';
import { readHookConfig } from '../../shared/node/hooks/relay/hook-config';
import { defaultWaitMs } from '../../shared/node/hooks/relay/wait-defaults';
import { defaultHookCommand } from './install/hook-command';
import { relayScriptBeside } from '../../shared/node/relay-script';
import type { HookInstaller, InstallResult } from './install/installer';
import { HOOK_INSTALLERS } from './installers';

export interface HookInstallFlags {
  install?: boolean;
  uninstall?: boolean;
  project?: string;
  permissionRequest?: boolean;
  command?: string;
  http?: boolean;
  /** False with `--no-sandbox` (commander's negated option). */
  sandbox?: boolean;
}

/** `gatehouse hook <agent> --install|--uninstall [--project DIR]`. Returns the exit code. */
export async function runHookInstall(
  agent: string,
  o: HookInstallFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  if (o.install && o.uninstall) {
    console.error('gatehouse: choose one of --install and --uninstall');
    return 4;
  }
  const load = isAgentKind(agent) ? HOOK_INSTALLERS[agent] : undefined;
  if (!load) {
    const known = AGENT_KINDS.filter((k) => HOOK_INSTALLERS[k]).join(', ');
    console.error(`gatehouse: no hook installer for "${agent}" (known: ${known})`);
    return 4;
  }
  const installer = await load();
  if (o.http && agent !== 'claude-code') {
    console.error('gatehouse: --http is for claude-code only (its hooks can be http requests)');
    return 4;
  }
  if (installer.project === 'required' && !o.project) {
    console.error(
      `gatehouse: ${installer.label} reads its hooks from the repository: add --project DIR`,
    );
    return 4;
  }
  const relay = relayScriptBeside(process.argv[1] ?? '');
  const target = {
    home: env.HOME || homedir(),
    env,
    ...(o.project ? { project: o.project } : {}),
    // The folder of the built program (dist/), which holds the relay the hook command runs.
    ...(relay ? { programDir: dirname(dirname(relay)) } : {}),
  };
  try {
    if (o.uninstall) {
      console.log(installer.uninstall(target));
      return 0;
    }
    const config = readHookConfig(env, {
      agent,
      label: installer.label,
      waitMs: defaultWaitMs(installer.agent),
    });
    for (const w of config.warnings) console.error(`gatehouse: ${w}`);
    const result = await installer.install({
      ...target,
      command:
        o.command ??
        defaultHookCommand(
          agent,
          env,
          installer.pinWait ? { GATEHOUSE_HOOK_WAIT_MS: String(config.waitMs) } : {},
        ),
      waitMs: config.waitMs,
      ...(o.permissionRequest ? { permissionRequest: true } : {}),
      ...(o.http ? { http: true } : {}),
      ...(o.sandbox === false ? { sandbox: false } : {}),
    });
    console.log(result.changed);
    for (const line of whatHappens(installer, result, config.waitMs, env)) console.log(line);
    console.log(
      `Undo with: gatehouse hook ${installer.agent} --uninstall${o.project ? ` --project ${o.project}` : ''}`,
    );
    return 0;
  } catch (error) {
    console.error(`gatehouse: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

const seconds = (ms: number): string =>
  ms % 60_000 === 0 && ms >= 120_000 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;

/** What the install means for the person: what waits, how long, what happens when Gatehouse is down. */
export function whatHappens(
  installer: HookInstaller,
  r: InstallResult,
  waitMs: number,
  env: NodeJS.ProcessEnv,
): string[] {
  const label = installer.label;
  const afterWait = installer.canAsk
    ? `after that the request is withdrawn and ${label} asks you itself`
    : `after that the call is denied and the request stays in the queue (approving it lets the same call through when ${label} tries again)`;
  const timeout =
    r.timeoutSec === undefined
      ? `no hook timeout is written: ${label}'s own applies`
      : `the hook timeout written is ${r.timeoutSec} s`;
  const gated = r.gated.charAt(0).toUpperCase() + r.gated.slice(1);
  const lines = [
    'What now happens:',
    `  - ${gated} goes to Gatehouse first. What policy allows runs at once; what asks waits up to ${seconds(waitMs)} for a person (gatehouse review, the tray or the dashboard); ${afterWait}. Set GATEHOUSE_HOOK_WAIT_MS before installing to change the wait (${timeout}).`,
    installer.canStop
      ? `  - While you have paused or killed the agent, or a breaker says stop, ${label} is told to stop: the call is refused and the turn ends.`
      : `  - While you have paused or killed the agent, or a breaker says stop, every call is refused with the reason (${label} has no answer that stops its run).`,
    `  - ${r.whenDown ?? 'With Gatehouse down, what would ask is denied with how to start Gatehouse; reads inside the project, git queries and tests that the built-in table allows still run.'}`,
    `  - ${r.restart}`,
  ];
  // An install with a `whenDown` of its own writes no command (Claude Code's http hook).
  if ((env.GATEHOUSE_HOME || env.GATEHOUSE_SOCKET) && !r.whenDown)
    lines.push(
      `  - The hook command carries this Gatehouse's location (GATEHOUSE_HOME / GATEHOUSE_SOCKET) where it is not the default.`,
    );
  for (const note of r.notes ?? []) lines.push(`  - ${note}`);
  return lines;
}
