import { createHash } from 'node:crypto';
import type { AuditEvent } from '../../shared/domain';
import {
  exportHeader,
  exportRecord,
  exportSignedText,
  type ExportFormat,
} from '../../shared/export-format';
import { signText, type Ed25519Pair } from '../../shared/node/hub-keys';
import type { AuditExportSignature } from '../../shared/protocol/audit-chain-methods';

/** One page of the audit trail, newest first, as `audit.query` answers it. */
export type AuditPages = (q: {
  since?: string;
  until: string;
  cursor?: string;
  limit: number;
}) => Promise<{ events: AuditEvent[]; nextCursor?: string | undefined }>;

const PAGE = 1000;

/**
 * Signs an export of a time range: formats the range exactly as `gatehouse export` writes it
 * (shared/export-format.ts), from the daemon's own trail and in its order, and signs the
 * digest of those bytes with the audit key. The CLI checks the digest against the file it wrote
 * before it keeps the signature.
 */
export async function signExport(
  q: { format: ExportFormat; since?: string | undefined; until: string },
  pages: AuditPages,
  key: Ed25519Pair,
  now: () => number,
): Promise<AuditExportSignature> {
  const hash = createHash('sha256');
  let bytes = 0;
  let entries = 0;
  const add = (text: string) => {
    const b = Buffer.from(text, 'utf8');
    hash.update(b);
    bytes += b.length;
  };
  add(exportHeader(q.format));
  let cursor: string | undefined;
  do {
    const page = await pages({
      ...(q.since !== undefined ? { since: q.since } : {}),
      until: q.until,
      limit: PAGE,
      ...(cursor !== undefined ? { cursor } : {}),
    });
    for (const e of page.events) {
      add(exportRecord(e, q.format));
      entries++;
    }
    cursor = page.nextCursor;
    // The event loop is given back between pages: a year of history is signed without a stall.
    await new Promise((resolve) => setImmediate(resolve));
  } while (cursor !== undefined);
  const signed = {
    format: q.format,
    ...(q.since !== undefined ? { since: q.since } : {}),
    until: q.until,
    entries,
    bytes,
    sha256: hash.digest('hex'),
    signedAt: new Date(now()).toISOString(),
  };
  return {
    ...signed,
    publicKey: key.publicKey,
    signature: signText(key.privateKeyPem, exportSignedText(signed)),
  };
}
