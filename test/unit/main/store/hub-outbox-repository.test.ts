import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ruleOffersOf } from '../../../../main/hub-link/rule-offers';
import { openDatabase } from '../../../../main/store/database';
import { HubOutboxRepository } from '../../../../main/store/hub-outbox-repository';
import type { RequestRecord } from '../../../../shared/domain';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const TOKEN = 'ghp_OUTBOXFILELEAKOUTBOXFILELEAK01234';
const COMMAND = `git push https://${TOKEN}@github.com/o/r.git main`;

describe('the hub outbox', () => {
  it('keeps only the masked copy: neither the entries it hands out nor its file hold a secret', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-outbox-'));
    dirs.push(dir);
    const db = openDatabase({ file: join(dir, 'g.db') });
    const outbox = new HubOutboxRepository(db);
    const request: RequestRecord = {
      requestId: 'req_1',
      sessionId: 'ses_1',
      agent: 'builder',
      action: 'git_push',
      description: COMMAND,
      urgency: 'normal',
      command: COMMAND,
      status: 'pending',
      tier: 'ask',
      rule: 'default:git_push',
      ruleReason: 'asks',
      createdAt: '2026-11-26T00:00:00.000Z',
    };
    const offers = ruleOffersOf({
      draft: { action: 'git_push', command: COMMAND },
      widenings: [{ action: 'git_push', commandPrefix: 'git push' }],
      describe: [`git_push with command \`${COMMAND}\``, 'git_push with command `git push:*`'],
    });
    outbox.enqueue('request.asked', request, 1, offers);
    outbox.enqueue('request.decided', { ...request, status: 'approved' }, 2);

    const [asked, decided] = outbox.next(0, 10);
    const shown = 'git push https://ghp_…[masked]@github.com/o/r.git main';
    expect(asked!.request).toMatchObject({
      requestId: 'req_1',
      command: shown,
      description: shown,
    });
    expect(asked!.offers!.map((o) => o.id)).toEqual(offers!.map((o) => o.id));
    expect(asked!.offers![0]!.draft.command).toBe(shown);
    expect(decided!.request).toMatchObject({ status: 'approved', command: shown });
    expect(outbox.published('req_1')).toBe(true);
    db.close();
    const files = readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1'));
    // The entries are in the file (the database closed, its log folded in), masked.
    expect(files.join('')).toContain('@github.com/o/r.git main');
    expect(files.join('')).not.toContain('OUTBOXFILELEAK');
  });
});
