import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Builds the bundles the integration tests run (`npm test` has built them already). */
export default function setup(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'build.mjs')], {
    stdio: 'inherit',
    env: { ...process.env, GATEHOUSE_QUIET_BUILD: '1' },
  });
}
