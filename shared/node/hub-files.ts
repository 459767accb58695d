import { join } from 'node:path';

/**
 * Where the hub and a joined machine keep their files, all inside `GATEHOUSE_HOME` (which the
 * engine protects from agents as a whole: a protected location).
 */
export const hubFiles = (home: string) => {
  const dir = join(home, 'hub');
  return {
    /** The hub server's folder: its embedded database, admin token and address. */
    dir,
    data: join(dir, 'data'),
    adminToken: join(dir, 'admin.token'),
    /** `{ url }` of the hub running on this host, for its admin commands. */
    address: join(dir, 'hub.json'),
  };
};

export const hubLinkFiles = (home: string) => {
  const dir = join(home, 'hub-link');
  return {
    /** A joined machine's folder (0700). */
    dir,
    /** The machine's Ed25519 private key (PKCS#8 PEM, 0600): whoever reads it is this machine. */
    key: join(dir, 'machine.key'),
    /** `{ url, machineId, machineName, hubPublicKey, joinedAt }`: the hub this machine joined. */
    link: join(dir, 'link.json'),
    /** The daemon's report of its link (connected, since, last error, outbox size). */
    state: join(dir, 'state.json'),
  };
};
