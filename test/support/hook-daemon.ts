import { beforeAll, expect } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { bashDenyingAsks, type DeniedOrPerformed } from './claude-hook';
import { daemonPerDescribe, type TestDaemon } from './daemon';

/** The daemon of a describe block, its admin connection, and Bash calls through the hook. */
export interface HookDaemon {
  readonly daemon: TestDaemon;
  readonly admin: AdminClient;
  /** Adds the person's rule `rules add write_file --path '**' --tier auto`. */
  allowWrites(): Promise<void>;
  /** A Bash call in `cwd` through the real Claude Code hook ({@link bashDenyingAsks}). */
  bashIn(cwd: string): (command: string) => Promise<DeniedOrPerformed>;
}

/**
 * One daemon for the enclosing describe block ({@link daemonPerDescribe}), with Bash calls of
 * one session through the real hook; `writesAllowed` adds the rule several attacks start
 * from, a person's `rules add write_file --path '**' --tier auto`.
 */
export function hookDaemonPerDescribe(
  session: string,
  o: { writesAllowed?: boolean } = {},
): HookDaemon {
  let daemon: TestDaemon | undefined;
  let admin: AdminClient | undefined;
  daemonPerDescribe((d, a) => {
    daemon = d;
    admin = a;
  });
  const hook: HookDaemon = {
    async allowWrites() {
      const added = await daemon!.cli([
        'rules',
        'add',
        'write_file',
        '--path',
        '**',
        '--tier',
        'auto',
      ]);
      expect(added.code, added.stderr).toBe(0);
    },
    get daemon() {
      return daemon!;
    },
    get admin() {
      return admin!;
    },
    bashIn: (cwd) =>
      bashDenyingAsks({
        env: { ...daemon!.env, GATEHOUSE_HOOK_WAIT_MS: '10000' },
        admin: admin!,
        cwd,
        session,
      }),
  };
  if (o.writesAllowed) beforeAll(() => hook.allowWrites());
  return hook;
}
