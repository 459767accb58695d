import type { CliEntryPoints } from '../shared/node/cli-entry-points';

/**
 * The bundle the `gatehouse` command line loads at run time (dist/main/cli-entry.js) for the
 * commands that run main/ itself. Each loads its own code only when it runs, so the other
 * commands (and the Claude Code hook) stay light.
 */
export const cliEntryPoints: CliEntryPoints = {
  daemon: async (o) => (await import('./daemon')).runDaemonForeground(o),
  hub: async (o) => (await import('./hub/run-hub')).runHubForeground(o),
};
