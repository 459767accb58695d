import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../shared/domain';
import type { MachineToHub } from '../../../shared/hub-protocol';
import { RuleOffers } from '../../../shared/hub-rule-offers';
import { TestHub } from '../../support/hub';
import { handLink, type HandLink } from '../../support/hub-hand-link';
import { hubTablesText } from '../../support/hub-tables';
import { TestPostgres } from '../../support/postgres';

const GH = 'ghp_OLDMACHINELEAKOLDMACHINELEAK01234';
const AWS = 'wJalrXUtnFEMIK7MDENGbPxRfiOLDMACHINELEAK';
const LEAK = /OLDMACHINELEAK/;
const COMMAND = `export AWS_SECRET_ACCESS_KEY=${AWS}\ncurl -sf --oauth2-bearer ${GH} https://api.example.com/deploy`;
const OFFER_ID = 'c0ffee'.padEnd(32, '0');

/**
 * A machine from before the masking sends the hub its requests as they are: the hub masks
 * them as they arrive (the request, its rule offers, the shadow examples), so its database
 * holds no secret from it either; the offers keep the ids the machine made. The machine is
 * spoken by hand over the real link, to a real hub on a real PostgreSQL whose every table is
 * scanned.
 */
describe('an older machine’s secrets are masked as they reach the hub', () => {
  let pg: TestPostgres;
  let databaseUrl: string;
  let hub: TestHub;
  let link: HandLink;
  let ann: string;

  beforeAll(async () => {
    pg = await TestPostgres.start();
    databaseUrl = pg.createDatabase('arrival');
    hub = await TestHub.start({ databaseUrl });
    ann = await hub.person('ann');
    link = await handLink(hub, await hub.invite('old-laptop'), { version: '0.0.9' });
  }, 120_000);
  afterAll(async () => {
    link?.ws.close();
    await hub?.stop();
    pg?.stop();
  });

  const send = (message: MachineToHub) => link.ws.send(JSON.stringify(message));

  it('stores the request, its offers and a shadow example masked', async () => {
    const request: RequestRecord = {
      requestId: 'req-old-1',
      sessionId: 'ses-old',
      agent: 'builder',
      project: '/work/p',
      action: 'deploy',
      description: COMMAND,
      urgency: 'normal',
      command: COMMAND,
      context: { toolInput: { command: COMMAND } },
      status: 'pending',
      tier: 'ask',
      rule: 'default:deploy',
      ruleReason: 'asks',
      createdAt: new Date().toISOString(),
    };
    send({
      t: 'publish',
      entries: [
        {
          seq: 1,
          kind: 'request.asked',
          request,
          offers: [
            {
              id: OFFER_ID,
              draft: { action: 'deploy', command: COMMAND, project: '/work/p' },
              describe: `deploy with command \`${COMMAND}\``,
            },
          ],
        },
      ],
    });
    send({
      t: 'shadow',
      records: [
        {
          id: 1,
          at: Date.now(),
          ruleId: 'tr-old1',
          version: 1,
          action: 'deploy',
          would: 'ask',
          actual: 'auto',
          summary: COMMAND,
        },
      ],
    });
    await expect
      .poll(() => link.received.filter((m) => m.t === 'ack' || m.t === 'shadow_ack').length, {
        timeout: 15_000,
      })
      .toBe(2);

    const view = await hub.api('GET', '/api/requests/one?id=req-old-1&machine=old-laptop', {
      token: ann,
    });
    expect(view.status).toBe(200);
    const shown = view.body.request as RequestRecord;
    expect(shown.command).toBe(
      'export AWS_SECRET_ACCESS_KEY=wJal…[masked]\ncurl -sf --oauth2-bearer ghp_…[masked] https://api.example.com/deploy',
    );
    const offers = RuleOffers.parse(view.body.offers);
    expect(offers.map((o) => o.id)).toEqual([OFFER_ID]);
    expect(offers[0]!.draft.command).toBe(shown.command);
    expect(JSON.stringify(view.body)).not.toMatch(LEAK);

    const { tables, text } = await hubTablesText(databaseUrl);
    expect(tables).toBeGreaterThan(10);
    // The shadow example is there (positive control), masked.
    expect(text).toContain('curl -sf --oauth2-bearer ghp_…[masked]');
    expect(text).toContain('tr-old1');
    expect(text).not.toMatch(LEAK);
  }, 60_000);
});
