import type { Command } from 'commander';
import { resolveHome } from '../../../shared/node/socket-path';
import { AdminClient } from '../admin-client';
import { reportError, UsageError } from '../run-admin';
import { hubUrl } from './hub-http-client';
import { personTokenFor } from './hub-login';
import { HubQueueClient, type QueueClient } from './hub-queue-client';

/** The commands `gatehouse --hub URL …` runs against a hub instead of the local daemon. */
const HUB_COMMANDS = new Set(['list', 'show', 'approve', 'deny', 'review']);

let target: string | undefined;

/**
 * The global `--hub URL` option: the queue commands then talk to that hub with a person's
 * token. Any other command given `--hub` is refused rather than run against the local
 * daemon by surprise.
 */
export function addHubOption(program: Command): void {
  program.option(
    '--hub [url]',
    'run list, show, approve, deny or review on a team hub (token: GATEHOUSE_HUB_TOKEN or `gatehouse hub login URL`); `audit verify --hub` checks against the joined hub',
  );
  program.hook('preAction', (root, action) => {
    const url = (root.opts() as { hub?: string | true }).hub;
    if (url === undefined) return;
    // `audit verify --hub` (no URL): this machine's chain against the hub it joined.
    if (url === true && action.name() === 'verify' && action.parent?.name() === 'audit') return;
    if (url === true) throw new UsageError("--hub needs the hub's URL");
    if (action.parent !== root || !HUB_COMMANDS.has(action.name()))
      throw new UsageError(
        `--hub runs ${[...HUB_COMMANDS].join(', ')}; \`${action.name()}\` runs on this machine`,
      );
    target = hubUrl(url);
  });
}

/**
 * Runs a queue command with a client for its target: the hub given with `--hub`, else the
 * local daemon (with the admin token); failures become a message and an exit code.
 */
export async function withQueue(fn: (client: QueueClient) => Promise<void>): Promise<void> {
  let client: QueueClient | undefined;
  try {
    client = target
      ? new HubQueueClient(target, personTokenFor(resolveHome(), target))
      : await AdminClient.connect();
    await fn(client);
  } catch (error) {
    process.exitCode = reportError(error);
  } finally {
    client?.close();
  }
}
