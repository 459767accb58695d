import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built renderer (dist/renderer). Bundled code runs from dist/chunks or dist/main; the
 * sources run from main/ under the tests.
 */
export function rendererDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    join(here, '..', 'renderer'),
    join(here, '..', 'dist', 'renderer'),
    join(here, '..', '..', 'dist', 'renderer'),
  ];
  return candidates.find((c) => existsSync(join(c, 'index.html'))) ?? candidates[0]!;
}
