import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries the signature of a webhook body. */
export const SIGNATURE_HEADER = 'X-Gatehouse-Signature';

/** `sha256=<hex>` of HMAC-SHA256(secret, body), over the exact bytes sent. */
export function signWebhookBody(secret: string, body: string | Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Checks a received signature in constant time; for receivers and tests. */
export function verifyWebhookSignature(
  secret: string,
  body: string | Uint8Array,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
