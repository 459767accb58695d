import { createHash } from 'node:crypto';
import type { AuditEvent } from '../../shared/domain';

/** What the chain starts from before its first entry: a fixed, versioned value. */
export const CHAIN_GENESIS: Buffer = createHash('sha256')
  .update('gatehouse audit chain v1')
  .digest();

/**
 * JSON with every object's keys sorted and undefined values left out: the same entry always
 * gives the same text, whatever order its fields were written in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The link of one entry: the hash of the link before it and the entry as the trail shows it,
 * its number included, so an entry moved to another place no longer matches.
 */
export function chainLink(previous: Buffer, entry: AuditEvent): Buffer {
  return chainHash(previous, entry);
}

/**
 * The link of any record (the hub's audit rows use it too): SHA-256 of the link before it and
 * the record's canonical JSON.
 */
export function chainHash(previous: Buffer, record: unknown): Buffer {
  return createHash('sha256').update(previous).update(canonicalJson(record)).digest();
}

/** The text a checkpoint's signature covers. */
export function checkpointText(c: {
  seq: number;
  hash: string;
  at: number;
  throughAt: number;
  entries: number;
}): string {
  return [
    'gatehouse audit checkpoint v1',
    `seq=${c.seq}`,
    `hash=${c.hash}`,
    `at=${c.at}`,
    `through=${c.throughAt}`,
    `entries=${c.entries}`,
  ].join('\n');
}
