import { describe, expect, it } from 'vitest';
import type { RequestRecord, RuleDraft } from '../../../shared/domain';
import { hubCopy } from '../../../shared/hub-copy';
import { RuleOffers } from '../../../shared/hub-rule-offers';
import { ruleOfferId, ruleOffersOf } from '../../../main/hub-link/rule-offers';

const GH = 'ghp_HUBCOPYTOKENHUBCOPYTOKEN0123456789';
const AWS = 'wJalrXUtnFEMIK7MDENGbPxRfiCYHUBCOPYKEY';
const SECRETS = /HUBCOPY/;
const command = `curl -H "Authorization: Bearer ${GH}" https://api.github.com/user && export AWS_SECRET_ACCESS_KEY=${AWS}`;

const request: RequestRecord = {
  requestId: 'req-1',
  sessionId: 'ses-1',
  agent: 'claude-code',
  project: '/work/p',
  action: 'shell',
  description: `Bash: ${command}`,
  rationale: `needs the token ${GH}`,
  urgency: 'normal',
  target: `https://x:${GH}@example.com`,
  command,
  paths: [`/tmp/${GH}`],
  context: { client: 'claude-code', tool: 'Bash', toolInput: { command }, cwd: '/work/p' },
  dedupeKey: `claude-code:${GH}`,
  status: 'pending',
  tier: 'ask',
  rule: 'default:shell',
  ruleReason: `asks: ${command}`,
  createdAt: '2026-11-26T00:00:00.000Z',
  message: `token=${AWS}`,
  conditions: [`do not print ${GH}`],
  picture: {
    commands: [{ action: 'http', target: `Bearer ${GH}`, tier: 'ask', rule: 'default:http' }],
    push: {
      remote: 'origin',
      url: `https://${GH}@github.com/o/r.git`,
      branch: 'main',
      force: false,
      commitCount: 0,
      commits: [],
    },
  },
};

describe("the hub's copy of a request", () => {
  it('has every secret masked, wherever in the request it is, and keeps the ids', () => {
    const copy = hubCopy(request).request;
    expect(JSON.stringify(copy)).not.toMatch(SECRETS);
    expect(copy.command).toBe(
      // The header's scheme word goes too: the masker reads `Authorization: Bearer` as a key and its value.
      'curl -H "Authorization: Bear…[masked] ghp_…[masked]" https://api.github.com/user && export AWS_SECRET_ACCESS_KEY=wJal…[masked]',
    );
    expect(copy.context?.toolInput).toEqual({ command: copy.command });
    expect(copy).toMatchObject({
      requestId: 'req-1',
      sessionId: 'ses-1',
      agent: 'claude-code',
      project: '/work/p',
      action: 'shell',
      status: 'pending',
      tier: 'ask',
      createdAt: request.createdAt,
    });
    // Masking twice changes nothing: an entry masked again (the migration) stays as it is.
    expect(hubCopy(copy).request).toEqual(copy);
    // The machine's own request is left as it was.
    expect(request.command).toContain(GH);
  });

  it("masks the offers' rules and words, and keeps each id: the digest of the machine's real rule", () => {
    const narrowest: RuleDraft = { action: 'shell', command, project: '/work/p' };
    const wider: RuleDraft = { action: 'shell', commandPrefix: 'curl', project: '/work/p' };
    const offers = ruleOffersOf({
      draft: narrowest,
      widenings: [wider],
      describe: [`shell with command \`${command}\``, 'shell with command `curl:*`'],
    })!;
    const copy = hubCopy(request, offers);
    expect(JSON.stringify(copy.offers)).not.toMatch(SECRETS);
    expect(copy.offers!.map((o) => o.id)).toEqual([ruleOfferId(narrowest), ruleOfferId(wider)]);
    expect(copy.offers![0]!.draft.command).toBe(copy.request.command);
    expect(copy.offers![0]!.describe).not.toContain(GH);
    expect(copy.offers![1]).toEqual(offers[1]);
    expect(RuleOffers.safeParse(copy.offers).success).toBe(true);
  });

  it('leaves out an offer its mask makes too long, and every wider one after it', () => {
    // A prefix of many short secrets: each mask is longer than the value it hides.
    const prefix = Array.from({ length: 90 }, (_, i) => `token=s${String(i).padStart(5, '0')}`)
      .join(' ')
      .slice(0, 1024);
    const narrowest: RuleDraft = { action: 'shell', command: `${prefix} run` };
    const shaped: RuleDraft = { action: 'shell', commandPrefix: prefix };
    const offers = ruleOffersOf({
      draft: narrowest,
      widenings: [shaped, { action: 'shell' }],
      describe: [],
    })!;
    expect(offers).toHaveLength(3);
    const copy = hubCopy(request, offers);
    expect(copy.offers!.map((o) => o.id)).toEqual([ruleOfferId(narrowest)]);
    expect(RuleOffers.safeParse(copy.offers).success).toBe(true);
    expect(JSON.stringify(copy.offers)).not.toContain('s00001');
    // None that fits: no offers at all (the hub offers no choice, the machine its narrowest).
    expect(hubCopy(request, [offers[1]!]).offers).toBeUndefined();
  });
});
