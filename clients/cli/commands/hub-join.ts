import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { JoinResult } from '../../../shared/hub-protocol';
import { generateEd25519 } from '../../../shared/node/hub-keys';
import { hubLinkFiles } from '../../../shared/node/hub-files';
import { makeDirs } from '../../../shared/node/make-dirs';
import { VERSION } from '../../../shared/version';
import { UsageError } from '../run-admin';
import { callHub, hubUrl } from './hub-http-client';

/** What link.json holds: the hub this machine joined and the key it pinned. */
export const HubLinkRecord = JoinResult.extend({
  url: z.string(),
  joinedAt: z.string(),
  /** A CA the hub's certificate is checked against (PEM), for a hub with a private CA. */
  ca: z.string().optional(),
});
export type HubLinkRecord = z.infer<typeof HubLinkRecord>;

export function readHubLink(home: string): HubLinkRecord | undefined {
  const files = hubLinkFiles(home);
  if (!existsSync(files.link)) return undefined;
  return HubLinkRecord.parse(JSON.parse(readFileSync(files.link, 'utf8')));
}

/**
 * `gatehouse hub join URL CODE`: makes this machine's Ed25519 key pair (0600, in the data
 * folder, which agents cannot read: it is a protected location), registers its public key
 * with the code, and pins the hub's key. The running daemon sees link.json and connects
 * (checking the hub's TLS certificate against `ca` too, when given).
 */
export async function joinHub(
  home: string,
  urlText: string,
  code: string,
  ca?: string,
): Promise<HubLinkRecord> {
  const url = hubUrl(urlText);
  const files = hubLinkFiles(home);
  const current = readHubLink(home);
  if (current)
    throw new UsageError(
      `this machine already joined ${current.url} as ${current.machineName}; run \`gatehouse hub leave\` first`,
    );
  const pair = generateEd25519();
  const joined = JoinResult.parse(
    await callHub(url, 'POST', '/api/join', {
      body: { code, publicKey: pair.publicKey, version: VERSION },
      ...(ca ? { ca } : {}),
    }),
  );
  makeDirs(home, 0o700, 'GATEHOUSE_HOME');
  makeDirs(files.dir, 0o700, 'the hub link folder');
  writeFileSync(files.key, pair.privateKeyPem, { mode: 0o600 });
  const record: HubLinkRecord = {
    ...joined,
    url,
    joinedAt: new Date().toISOString(),
    ...(ca ? { ca } : {}),
  };
  // Written last: the daemon starts the link when this file appears, with the key beside it.
  writeFileSync(files.link, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  return record;
}

/** `gatehouse hub leave`: forgets the hub and the key; the daemon closes its link. */
export function leaveHub(home: string): HubLinkRecord | undefined {
  const current = readHubLink(home);
  const files = hubLinkFiles(home);
  rmSync(files.link, { force: true });
  rmSync(files.key, { force: true });
  return current;
}

/**
 * One line for `gatehouse status` on a joined machine: the hub, and the link as the daemon
 * last reported it; undefined when the machine joined no hub.
 */
export function hubStatusLine(home: string): string | undefined {
  const link = readHubLink(home);
  if (!link) return undefined;
  const stateFile = hubLinkFiles(home).state;
  let state: { connected?: boolean; error?: string; outbox?: number } = {};
  try {
    if (existsSync(stateFile)) state = JSON.parse(readFileSync(stateFile, 'utf8')) as typeof state;
  } catch {
    // Being rewritten: the line says nothing of the link this time.
  }
  const linkText =
    state.connected === undefined
      ? 'link not reported yet'
      : state.connected
        ? 'linked'
        : `not linked${state.error ? ` (${state.error})` : ''}`;
  return `Hub: ${link.url} as ${link.machineName}, ${linkText}${state.outbox ? `, ${state.outbox} to publish` : ''}`;
}
