// Preloaded into a daemon (NODE_OPTIONS=--import): notes every stat of a `.gatehouse.toml`
// in the file GATEHOUSE_TEST_POLICY_STATS names, one line each, and then stats as before.
// It observes; the daemon's behaviour is unchanged. ESM named imports of node:fs are
// re-synced so the bundled daemon's `statSync` is this one too.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const log = process.env.GATEHOUSE_TEST_POLICY_STATS;
if (log) {
  const statSync = fs.statSync;
  fs.statSync = function countedStatSync(path, ...rest) {
    if (String(path).endsWith('.gatehouse.toml')) fs.appendFileSync(log, `${String(path)}\n`);
    return statSync.call(this, path, ...rest);
  };
  syncBuiltinESMExports();
}
