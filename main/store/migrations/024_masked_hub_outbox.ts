import type { RequestRecord } from '../../../shared/domain';
import { hubCopy } from '../../../shared/hub-copy';
import type { RuleOffer } from '../../../shared/hub-rule-offers';
import { maskSecrets } from '../../../shared/request-picture/mask-secrets';
import type { Migration } from './migration';

/**
 * Entries queued for the hub before the hub's copy of a request was masked as a whole
 * (shared/hub-copy.ts): the command, description, target, paths, context and rule offers of
 * each entry not yet published are masked now, as new entries are, and so is the example
 * each shadow record of the team policy carries (main/engine/policy/team-rules.ts). What the
 * hub already has stays there: the machine cannot reach it.
 */
export const migration024: Migration = {
  version: 24,
  name: 'masked-hub-outbox',
  up(db) {
    const entries = db.prepare('SELECT seq, body, offers FROM hub_outbox').all() as {
      seq: number;
      body: string;
      offers: string | null;
    }[];
    const rewrite = db.prepare('UPDATE hub_outbox SET body = ?, offers = ? WHERE seq = ?');
    for (const e of entries) {
      const copy = hubCopy(
        JSON.parse(e.body) as RequestRecord,
        e.offers === null ? undefined : (JSON.parse(e.offers) as RuleOffer[]),
      );
      const body = JSON.stringify(copy.request);
      const offers = copy.offers ? JSON.stringify(copy.offers) : null;
      if (body !== e.body || offers !== e.offers) rewrite.run(body, offers, e.seq);
    }
    const shadows = db.prepare('SELECT id, body FROM team_shadow').all() as {
      id: number;
      body: string;
    }[];
    const reword = db.prepare('UPDATE team_shadow SET body = ? WHERE id = ?');
    for (const s of shadows) {
      const record = JSON.parse(s.body) as { summary?: unknown };
      if (typeof record.summary !== 'string') continue;
      const summary = maskSecrets(record.summary).slice(0, 300);
      if (summary !== record.summary) reword.run(JSON.stringify({ ...record, summary }), s.id);
    }
  },
};
