import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { hubLinkFiles } from '../../shared/node/hub-files';

const Pinned = z.object({ hubPublicKey: z.string().min(40) });

/** The hub key this machine pinned when it joined (link.json); undefined when not joined. */
export function pinnedHubKey(home: string): string | undefined {
  const file = hubLinkFiles(home).link;
  if (!existsSync(file)) return undefined;
  try {
    return Pinned.parse(JSON.parse(readFileSync(file, 'utf8'))).hubPublicKey;
  } catch {
    return undefined;
  }
}
