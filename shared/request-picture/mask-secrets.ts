/**
 * Masks what looks like a secret in text shown to a person (a diff may travel to a phone, a
 * chat or an email): well-known token shapes, private key blocks, and the value of a
 * `password = …` / `API_KEY: …` assignment. The line stays, with its key name and the first
 * four characters of the value, so the person still sees that a secret is written and where;
 * only the value is hidden.
 */

const TOKEN_SHAPES: readonly RegExp[] = [
  /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/g,
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
];

const ASSIGNMENT =
  /((?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[A-Za-z0-9_-]*["']?\s*[:=]\s*["']?)([^\s"',;]{6,})/gi;

const PRIVATE_KEY =
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;

const hide = (value: string): string => `${value.slice(0, 4)}…[masked]`;

export function maskSecrets(text: string): string {
  let out = text.replace(PRIVATE_KEY, '-----BEGIN PRIVATE KEY----- …[masked]');
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, (m) => hide(m));
  return out.replace(ASSIGNMENT, (_m, key: string, value: string) => key + hide(value));
}
