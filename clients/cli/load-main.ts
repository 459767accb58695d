import { fileURLToPath } from 'node:url';
import type { CliEntryPoints } from '../../shared/node/cli-entry-points';

const isEntryPoints = (v: unknown): v is CliEntryPoints =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Record<string, unknown>).daemon === 'function' &&
  typeof (v as Record<string, unknown>).hub === 'function';

/**
 * main/'s entry points (the daemon, the hub), loaded from main/'s own bundle: clients/ never
 * imports main/'s source. The CLI's bundled files all sit one folder below dist/
 * (dist/cli-main/, dist/chunks/), so the bundle, dist/main/cli-entry.js, is found beside the
 * running file, never through the environment or the working directory. `from` is the file
 * it is resolved against.
 */
export async function loadMainEntryPoints(from: string = import.meta.url): Promise<CliEntryPoints> {
  const url = new URL('../main/cli-entry.js', from);
  let loaded: unknown;
  try {
    // A built bundle, not a source module: the one import() here whose target is computed.
    // eslint-disable-next-line no-restricted-syntax
    loaded = await import(url.href);
  } catch (error) {
    throw new Error(
      `cannot load the daemon's bundle ${fileURLToPath(url)} (build it: node scripts/build.mjs): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const entry = (loaded as { cliEntryPoints?: unknown }).cliEntryPoints;
  if (!isEntryPoints(entry))
    throw new Error(`${fileURLToPath(url)} is not the daemon's bundle (no cliEntryPoints)`);
  return entry;
}
