import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  newNonce,
  signDecisionToken,
  verifyDecisionToken,
  type DecisionClaims,
} from '../../../../main/remote/decision-token';
import { DecisionLinks, ensureLinkKey, linkKeyPath } from '../../../../main/remote/decision-links';
import { UsedNoncesRepository } from '../../../../main/store/used-nonces-repository';
import { openDatabase } from '../../../../main/store/database';
import { defaultSettings } from '../../../../shared/settings/index';

const KEY = 'k'.repeat(43);
const T0 = Date.parse('2026-11-23T12:00:00Z');

const claims = (over: Partial<DecisionClaims> = {}): DecisionClaims => ({
  requestId: 'req-1',
  decisions: ['approve', 'deny'],
  expiresAt: T0 + 3_600_000,
  nonce: 'AAAAAAAAAAAAAAAAAAAAAA',
  channel: 'email',
  ...over,
});

/** Decodes a token's payload, changes it, and re-encodes it under the original MAC. */
function tamper(token: string, change: (p: Record<string, unknown>) => void): string {
  const [payload, mac] = token.split('.') as [string, string];
  const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  change(body);
  return `${Buffer.from(JSON.stringify(body)).toString('base64url')}.${mac}`;
}

describe('decision tokens', () => {
  it('verify with the key that signed them, giving back every claim', () => {
    const token = signDecisionToken(KEY, claims());
    expect(verifyDecisionToken(KEY, token, T0)).toEqual({ ok: true, claims: claims() });
  });

  it.each([
    ['request id', (p: Record<string, unknown>) => (p.r = 'req-2')],
    ['decisions', (p: Record<string, unknown>) => (p.d = ['approve', 'approve_session', 'deny'])],
    ['expiry', (p: Record<string, unknown>) => (p.e = (p.e as number) + 86_400)],
    ['nonce', (p: Record<string, unknown>) => (p.n = 'BBBBBBBBBBBBBBBBBBBBBB')],
    ['channel', (p: Record<string, unknown>) => (p.c = 'ntfy')],
    ['version', (p: Record<string, unknown>) => (p.v = 2)],
  ])('are refused as forged when the %s is changed', (_field, change) => {
    const token = tamper(signDecisionToken(KEY, claims()), change);
    const v = verifyDecisionToken(KEY, token, T0);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toBe('forged');
  });

  it('are refused as forged under another key, and report what they claim for the audit', () => {
    const token = signDecisionToken('x'.repeat(43), claims({ channel: 'sms' }));
    expect(verifyDecisionToken(KEY, token, T0)).toEqual({
      ok: false,
      reason: 'forged',
      claimed: { requestId: 'req-1', channel: 'sms' },
    });
  });

  it('are refused as forged when the MAC itself is changed', () => {
    const token = signDecisionToken(KEY, claims());
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    const flipped = `${token.slice(0, -2)}${last}${token.at(-1)}`;
    expect(verifyDecisionToken(KEY, flipped, T0)).toMatchObject({ ok: false, reason: 'forged' });
  });

  it.each(['', 'abc', 'a.b.c', `${'a'.repeat(3000)}.b`, 'eyJ9.!!!', '.'])(
    'refuse malformed input %#',
    (token) => {
      expect(verifyDecisionToken(KEY, token, T0)).toMatchObject({
        ok: false,
        reason: 'malformed',
      });
    },
  );

  it('expire at their expiry, by the injected clock', () => {
    const token = signDecisionToken(KEY, claims({ expiresAt: T0 + 60_000 }));
    expect(verifyDecisionToken(KEY, token, T0 + 59_999).ok).toBe(true);
    expect(verifyDecisionToken(KEY, token, T0 + 60_000)).toEqual({
      ok: false,
      reason: 'expired',
      claimed: { requestId: 'req-1', channel: 'email' },
    });
  });

  it('have a fresh nonce each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => newNonce()));
    expect(nonces.size).toBe(100);
  });
});

describe('decision links and single use', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gatehouse-links-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keep the signing key in a 0600 file created on first use, the same key after', () => {
    const key = ensureLinkKey(dir);
    expect(key.length).toBeGreaterThanOrEqual(43);
    expect(statSync(linkKeyPath(dir)).mode & 0o777).toBe(0o600);
    expect(ensureLinkKey(dir)).toBe(key);
  });

  it('build links on the public URL when set, else on the local dashboard, expiring by the setting', () => {
    const settings = defaultSettings();
    let now = T0;
    const links = new DecisionLinks({
      key: KEY,
      now: () => now,
      settings: () => settings.dashboard,
      localBaseUrl: () => 'http://127.0.0.1:7417/',
    });
    const local = links.decisionLinkFor('req-9', 'email');
    expect(local).toMatch(/^http:\/\/127\.0\.0\.1:7417\/d\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const v = links.verify(local.split('/d/')[1]!);
    expect(v).toMatchObject({
      ok: true,
      claims: {
        requestId: 'req-9',
        channel: 'email',
        decisions: ['approve', 'approve_session', 'deny'],
        expiresAt: T0 + 24 * 3_600_000,
      },
    });
    settings.dashboard.remote.publicUrl = 'https://gate.example.ts.net';
    const button = links.actionLinkFor('req-9', 'ntfy', 'deny');
    expect(button.url).toBe(`https://gate.example.ts.net/d/${button.token}/act`);
    expect(links.verify(button.token)).toMatchObject({ ok: true, claims: { decisions: ['deny'] } });
    now = button.expiresAt;
    expect(links.verify(button.token)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('record a used nonce once, so a replay is refused, also after reopening the database', () => {
    const file = join(dir, 'gatehouse.db');
    let db = openDatabase({ file });
    const used = new UsedNoncesRepository(db);
    expect(used.consume('nonce-1', 'req-1', T0, T0 + 1000)).toBe(true);
    expect(used.consume('nonce-1', 'req-1', T0 + 1, T0 + 1000)).toBe(false);
    expect(used.usedAt('nonce-1')).toBe(T0);
    db.close();
    db = openDatabase({ file });
    const reopened = new UsedNoncesRepository(db);
    expect(reopened.consume('nonce-1', 'req-1', T0 + 2, T0 + 1000)).toBe(false);
    expect(reopened.pruneExpired(T0 + 999)).toBe(0);
    expect(reopened.pruneExpired(T0 + 1000)).toBe(1);
    db.close();
  });
});
