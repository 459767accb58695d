import { createPrivateKey, createPublicKey } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateEd25519, type Ed25519Pair } from '../../shared/node/hub-keys';

/** Where the daemon keeps the key that signs its audit chain: inside its (protected) folder. */
export const auditKeyPath = (home: string): string => join(home, 'audit.key');

/**
 * The daemon's audit signing key (Ed25519, PKCS#8 PEM, 0600), made on first use. Whoever holds
 * it can sign a rewritten chain, so it lives in the data folder the engine protects from agents
 * like the admin token.
 */
export function ensureAuditKey(home: string): Ed25519Pair {
  const file = auditKeyPath(home);
  if (existsSync(file)) {
    const privateKeyPem = readFileSync(file, 'utf8');
    chmodSync(file, 0o600);
    const publicKey = createPublicKey(createPrivateKey(privateKeyPem))
      .export({ type: 'spki', format: 'der' })
      .toString('base64');
    return { publicKey, privateKeyPem };
  }
  const pair = generateEd25519();
  writeFileSync(file, pair.privateKeyPem, { mode: 0o600, flag: 'wx' });
  return pair;
}
