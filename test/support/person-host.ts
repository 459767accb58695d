import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a person runs `gatehouse --hub URL …`: another host, with no daemon of its own. */
export interface PersonHost {
  home: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/**
 * A person's host: its own GATEHOUSE_HOME and a socket where no daemon listens; `extraEnv`
 * (their GATEHOUSE_HUB_TOKEN, say) added to its environment.
 */
export function personHost(extraEnv: NodeJS.ProcessEnv = {}): PersonHost {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-person-'));
  const home = join(dir, 'home');
  return {
    home,
    env: {
      ...process.env,
      GATEHOUSE_HOME: home,
      GATEHOUSE_SOCKET: join(dir, 'none.sock'),
      ...extraEnv,
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
