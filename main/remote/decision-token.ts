import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { LinkChannel, LinkDecision } from '../../shared/remote';
import { secretsEqual } from '../../shared/node/secrets-equal';

/**
 * Signed decision capabilities: the token inside a decision link (email, ntfy, SMS, webhook,
 * `gatehouse link`) and inside a single-decision button (ntfy's `http` action, the reply
 * topic). A token is `<payload>.<mac>`, both base64url:
 *
 * - payload: JSON `{ v: 1, r: requestId, d: [decisions…], e: expiry (epoch seconds),
 *   n: nonce (16 random bytes), c: channel }`;
 * - mac: HMAC-SHA256 over `gatehouse-decision-v1.` + the payload text, keyed by the link key,
 *   a file in GATEHOUSE_HOME (0600) that never leaves the machine (see link-key.ts).
 *
 * Changing any field changes the payload and so the MAC; the MAC is compared in constant time
 * (secretsEqual). Verifying says nothing about use: single use is the nonce, recorded in
 * SQLite when the token decides (see main/store/used-nonces-repository.ts), so a replay is refused.
 */

/** Separates this MAC from any other HMAC made with the same key (domain separation). */
const MAC_CONTEXT = 'gatehouse-decision-v1.';

/** A token longer than this is refused before any work: a link is a URL, not a payload. */
export const MAX_TOKEN_CHARS = 2048;

/** What a decision token grants. Times are epoch milliseconds. */
export interface DecisionClaims {
  requestId: string;
  /** The decisions the bearer may make; a button's token holds exactly one. */
  decisions: LinkDecision[];
  expiresAt: number;
  /** 16 random bytes, base64url: the single-use identity of this token. */
  nonce: string;
  /** Where the token was sent (email, ntfy, …); the decision records `link:<channel>`. */
  channel: LinkChannel;
}

const Payload = z
  .object({
    v: z.literal(1),
    r: z.string().min(1).max(256),
    d: z.array(LinkDecision).min(1).max(LinkDecision.options.length),
    e: z.number().int().positive(),
    n: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
    c: LinkChannel,
  })
  .strict();

/** Why a token was refused; each is audited with the channel the token came from. */
export type TokenRefusal = 'malformed' | 'forged' | 'expired';

export type VerifiedToken =
  | { ok: true; claims: DecisionClaims }
  | {
      ok: false;
      reason: TokenRefusal;
      /**
       * What the token says about itself when it could be read, unverified when `forged`: for
       * the audit entry (which request, which channel it claims), never for a decision.
       */
      claimed?: { requestId?: string; channel?: string } | undefined;
    };

/** A fresh nonce: 16 random bytes, base64url. */
export const newNonce = (): string => randomBytes(16).toString('base64url');

function mac(key: string, payload: string): string {
  return createHmac('sha256', key).update(MAC_CONTEXT).update(payload).digest('base64url');
}

/** Signs the claims into a token. The caller picks the nonce (normally {@link newNonce}). */
export function signDecisionToken(key: string, claims: DecisionClaims): string {
  const body: z.infer<typeof Payload> = {
    v: 1,
    r: claims.requestId,
    // Sorted and unique, so one capability has one spelling.
    d: [...new Set(claims.decisions)].sort(),
    e: Math.ceil(claims.expiresAt / 1000),
    n: claims.nonce,
    c: claims.channel,
  };
  const payload = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/**
 * Checks a token's MAC (constant time) and expiry against `now` (epoch ms). The payload is
 * parsed only after the MAC matched; a forged token's claims are read for the audit only.
 */
export function verifyDecisionToken(key: string, token: string, now: number): VerifiedToken {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) return malformed();
  const parts = token.split('.');
  if (parts.length !== 2) return malformed();
  const [payload, presented] = parts as [string, string];
  if (!/^[A-Za-z0-9_-]+$/.test(payload) || !/^[A-Za-z0-9_-]{43}$/.test(presented))
    return { ok: false, reason: 'malformed', claimed: readUnverified(payload) };
  if (!secretsEqual(presented, mac(key, payload)))
    return { ok: false, reason: 'forged', claimed: readUnverified(payload) };
  const parsed = Payload.safeParse(decodeJson(payload));
  // Signed by us but not a shape we make: only a bug or an old format gets here.
  if (!parsed.success) return malformed();
  const p = parsed.data;
  const claims: DecisionClaims = {
    requestId: p.r,
    decisions: p.d,
    expiresAt: p.e * 1000,
    nonce: p.n,
    channel: p.c,
  };
  if (now >= claims.expiresAt)
    return { ok: false, reason: 'expired', claimed: { requestId: p.r, channel: p.c } };
  return { ok: true, claims };
}

function malformed(): VerifiedToken {
  return { ok: false, reason: 'malformed' };
}

function decodeJson(payload: string): unknown {
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The request id and channel a token claims, cut short, without trusting them. */
function readUnverified(payload: string): { requestId?: string; channel?: string } | undefined {
  const raw = decodeJson(payload);
  if (!raw || typeof raw !== 'object') return undefined;
  const { r, c } = raw as { r?: unknown; c?: unknown };
  const out: { requestId?: string; channel?: string } = {};
  if (typeof r === 'string') out.requestId = r.slice(0, 128);
  if (typeof c === 'string') out.channel = c.slice(0, 32);
  return out;
}
