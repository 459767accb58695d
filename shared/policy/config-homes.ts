/**
 * Where an agent's environment moves its configuration folders: a module of its own, apart
 * from the protected table (protected-locations.ts), so that the hook relay, which reports
 * them with every call, does not load the table.
 */

/**
 * Environment variables that move an agent CLI's configuration folder out of the home
 * directory, and the folder the table knows it as: with `CODEX_HOME=~/work/codex`, Codex reads
 * its hooks from `~/work/codex/hooks.json`, which the table only knows as `~/.codex/hooks.json`.
 */
export const CONFIG_HOME_VARIABLES = {
  CODEX_HOME: '.codex',
  CLAUDE_CONFIG_DIR: '.claude',
  // Copilot CLI's user hooks (`hooks/`), settings (which can switch hooks off) and MCP servers.
  COPILOT_HOME: '.copilot',
  XDG_CONFIG_HOME: '.config',
} as const;

/** The agent's {@link CONFIG_HOME_VARIABLES} that are set: absolute folders, by variable. */
export type ConfigHomes = {
  -readonly [K in keyof typeof CONFIG_HOME_VARIABLES]?: string | undefined;
};

/** The agent's config homes in `env` (absolute ones only: a relative one moves with its cwd). */
export function configHomesIn(env: Readonly<Record<string, string | undefined>>): ConfigHomes {
  const homes: ConfigHomes = {};
  for (const name of Object.keys(CONFIG_HOME_VARIABLES) as (keyof ConfigHomes)[]) {
    const dir = env[name];
    if (dir?.startsWith('/') && dir.length <= 4096) homes[name] = dir;
  }
  return homes;
}
