import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';

/** An Ed25519 key pair: the public half as DER (SPKI) base64, the private half as PKCS#8 PEM. */
export interface Ed25519Pair {
  publicKey: string;
  privateKeyPem: string;
}

export function generateEd25519(): Ed25519Pair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export function signText(privateKeyPem: string, text: string): string {
  return sign(null, Buffer.from(text, 'utf8'), createPrivateKey(privateKeyPem)).toString('base64');
}

/** True only for a valid signature of exactly `text` by `publicKey`; never throws. */
export function verifyText(publicKey: string, text: string, signature: string): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.from(publicKey, 'base64'),
      format: 'der',
      type: 'spki',
    });
    return verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
