/**
 * Normalised fingerprints for stuck detection and the run breaker. Two outputs that differ
 * only in ids, timestamps or numbers are "the same" for a loop detector: an agent that
 * retries `request 7f3a… failed at 12:01:07` and `request 9b21… failed at 12:01:09` is stuck.
 */

const ISO_TIME = /\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?/g;
const CLOCK_TIME = /\b\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
/** Long hex runs (hashes, object ids) and mixed alphanumeric tokens with digits (ulids, keys). */
const HEX_ID = /\b(0x)?[0-9a-f]{8,}\b/g;
const MIXED_ID = /\b(?=[a-z0-9_-]*\d)(?=[a-z0-9_-]*[a-z])[a-z0-9_-]{12,}\b/g;
const NUMBER = /\d+(\.\d+)?/g;
const SPACE = /\s+/g;

/** Lowercases and masks timestamps, ids and numbers, and collapses whitespace. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(ISO_TIME, '<time>')
    .replace(UUID, '<id>')
    .replace(HEX_ID, '<id>')
    .replace(MIXED_ID, '<id>')
    .replace(CLOCK_TIME, '<time>')
    .replace(NUMBER, '#')
    .replace(SPACE, ' ')
    .trim();
}

/** djb2 over a string, as an unsigned 32-bit hex string: fast, no crypto needed. */
export function djb2(text: string): string {
  let hash = 5381;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) + hash + text.charCodeAt(i)) | 0;
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The fingerprint of a text: djb2 of its normalised form. */
export const fingerprint = (text: string): string => djb2(normalise(text));

/** The first line of an error message (stack traces and details dropped), as in seed 003. */
export const firstLine = (text: string): string => (text.split('\n', 1)[0] ?? '').trim();
