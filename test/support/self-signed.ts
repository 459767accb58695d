import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * A self-signed P-256 certificate made with openssl, as an admin would: `<name>.crt` and
 * `<name>.key` in `dir`, for the subject alternative name `altName` (`IP:127.0.0.1`,
 * `DNS:gate.test`), valid for `days`.
 */
export function selfSigned(
  dir: string,
  name: string,
  altName: string,
  days = 2,
): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      String(days),
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=${altName}`,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}
