/**
 * Runs in every test worker before its test file: the caller's Gatehouse variables
 * (GATEHOUSE_HOME, GATEHOUSE_SOCKET, GATEHOUSE_HOOK_FALLBACK, …, the documented ways to point a
 * real Gatehouse somewhere) are removed from this process's environment. Every test then
 * builds its environment from a base without them, and passes the same whatever the shell that
 * ran vitest has set — including a person's real data folder, which no test may touch.
 * The test runner's own knobs stay.
 */
const RUNNER_KNOBS = new Set([
  'GATEHOUSE_CHROMIUM',
  'GATEHOUSE_QUIET_BUILD',
  'GATEHOUSE_FORCE_BUILD',
]);

for (const name of Object.keys(process.env))
  if (name.startsWith('GATEHOUSE_') && !RUNNER_KNOBS.has(name)) delete process.env[name];
