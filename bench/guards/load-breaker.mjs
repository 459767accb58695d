// The circuit breaker exactly as the daemon and the SDK run it, built from its sources.
import { importSources } from '../lib/import-sources.mjs';

/** Returns the compiled module of the circuit breaker and the system clock. */
export function loadBreaker() {
  return importSources('breaker', [
    "export * from './shared/circuit-breaker';",
    "export { systemClock } from './shared/node/system-clock';",
  ]);
}
