import type { AgentKind } from '../../../shared/tools/agent-kinds';

/** Where an installer writes: the user's config, or a project's (`--project DIR`). */
export interface InstallTarget {
  project?: string;
  /** Gatehouse's program folder (dist/), when known: the sandbox keeps agents from writing it. */
  programDir?: string;
  /** The user's home directory (HOME; tests point it at a temporary one). */
  home: string;
  env: NodeJS.ProcessEnv;
}

export interface HookInstallRequest extends InstallTarget {
  /** The shell command the agent runs for each hook event (see hook-command.ts). */
  command: string;
  /** How long an `ask` waits for a person (GATEHOUSE_HOOK_WAIT_MS or the agent's default). */
  waitMs: number;
  /** `--permission-request`: gate only what the agent would prompt for, where it can. */
  permissionRequest?: boolean;
  /** `--http` (Claude Code): an http hook the daemon serves on loopback instead of a command. */
  http?: boolean;
  /**
   * False with `--no-sandbox`: leave the agent's own OS sandbox as it is. Otherwise, where the
   * agent has one (Claude Code, Codex), the install also turns it on: Gatehouse's files
   * denied (Claude Code), writes kept to the workspace (both) and no network (Codex).
   */
  sandbox?: boolean;
}

/** What an install did, for the lines `gatehouse hook <agent> --install` prints. */
export interface InstallResult {
  /** One line: what was written where, or that it was already there. */
  changed: string;
  /** Which calls go through Gatehouse, e.g. "every shell command and file edit". */
  gated: string;
  /** The hook timeout written into the agent's config, in seconds; undefined when none is written. */
  timeoutSec?: number;
  /** What to restart (or that nothing needs restarting) for the hooks to take effect. */
  restart: string;
  /** Anything else the person must know (trust prompts, files to review). */
  notes?: string[];
  /** What happens when Gatehouse is down, where it is not the command hook's built-in table. */
  whenDown?: string;
}

/**
 * One agent's install/uninstall: merges exactly Gatehouse's entries into the agent's config
 * and removes exactly them again. Registered in clients/hooks/installers.ts.
 */
export interface HookInstaller {
  agent: AgentKind;
  label: string;
  /** `optional`: user config by default, `--project DIR` for a repository's; `required`: repository only. */
  project: 'optional' | 'required';
  /** The agent's own default hook timeout, for the help text. */
  defaultTimeoutSec: number;
  /** True when the agent has a prompt of its own a timed-out wait hands back to. */
  canAsk: boolean;
  /** True when the agent's hook answer can stop its run (pause, kill, breaker). */
  canStop: boolean;
  /**
   * True when a hook that runs past its timeout lets the call through (Codex): the command
   * then carries GATEHOUSE_HOOK_WAIT_MS, so the wait always stays below the timeout written.
   */
  pinWait?: boolean;
  install(r: HookInstallRequest): InstallResult | Promise<InstallResult>;
  /** Returns one line: what was removed from where. */
  uninstall(t: InstallTarget): string;
}
