import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatButtons } from '../../../../main/remote/chat-buttons';
import { DecisionLinks } from '../../../../main/remote/decision-links';
import { ChatButtonsRepository } from '../../../../main/store/chat-buttons-repository';
import { openDatabase } from '../../../../main/store/database';
import { DashboardSettings } from '../../../../shared/settings/dashboard';

let dir: string;
let db: Database.Database;
let store: ChatButtonsRepository;
let now = 1_800_000_000_000;
const KEY = 'k'.repeat(43);

const buttonsWith = (key: string) =>
  new ChatButtons({
    app: 'telegram',
    links: new DecisionLinks({
      key,
      now: () => now,
      settings: () => DashboardSettings.parse({}),
      localBaseUrl: () => undefined,
    }),
    store,
    key,
    now: () => now,
  });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-chat-buttons-'));
  db = openDatabase({ file: join(dir, 'gatehouse.db') });
  store = new ChatButtonsRepository(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('chat buttons: a MAC’d short id of a stored record', () => {
  it('fits Telegram’s 64 bytes and names its request, decision and a token of channel telegram', () => {
    const buttons = buttonsWith(KEY);
    const data = buttons.issue('req-1', 'approve_session');
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    const resolved = buttons.resolve(data);
    expect(resolved).toMatchObject({ ok: true, requestId: 'req-1', decision: 'approve_session' });
    expect(resolved.ok && resolved.token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('refuses an altered MAC, another key’s button, an unknown id and garbage', () => {
    const buttons = buttonsWith(KEY);
    const data = buttons.issue('req-1', 'approve');
    const [id, mac] = data.split('.') as [string, string];
    const flipped = `${id}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    expect(buttons.resolve(flipped)).toEqual({ ok: false, reason: 'bad_form' });
    // Signed by another Gatehouse (another key): its MAC does not verify here.
    expect(buttons.resolve(buttonsWith('x'.repeat(43)).issue('req-1', 'approve'))).toEqual({
      ok: false,
      reason: 'bad_form',
    });
    expect(buttons.resolve('approve')).toEqual({ ok: false, reason: 'bad_form' });
    expect(buttons.resolve(`${data}x`)).toEqual({ ok: false, reason: 'bad_form' });
    // A valid MAC over an id never stored (the record was pruned): nothing to redeem.
    db.prepare('DELETE FROM chat_buttons').run();
    expect(buttons.resolve(data)).toEqual({ ok: false, reason: 'unknown_button' });
  });

  it('records who used a button once, and forgets expired records', () => {
    const buttons = buttonsWith(KEY);
    const data = buttons.issue('req-2', 'deny');
    const id = data.split('.')[0]!;
    buttons.used(id, '@ada (1)');
    expect(store.markUsed(id, now, '@eve (2)')).toBe(false);
    expect(store.button(id)).toMatchObject({ usedBy: '@ada (1)', usedAt: now });
    now += 2 * 24 * 3600_000;
    expect(store.pruneExpired(now)).toBe(1);
  });
});
