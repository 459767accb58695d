import { describe, expect, it } from 'vitest';
import {
  maskAuditRow,
  maskDecisionRow,
  maskNoticeRow,
  maskRequestRow,
  maskShadowRow,
} from '../../../../main/hub/stored-secrets-masks';
import { decisionText, HubDecision } from '../../../../shared/hub-protocol';
import { generateEd25519, verifyText } from '../../../../shared/node/hub-keys';

const identity = generateEd25519();

/** One text of every shape the masker knows, as an older hub kept it. */
const SECRETS = [
  'ghp_UNITLEAKUNITLEAKUNITLEAK0123456789',
  'github_pat_UNITLEAKUNITLEAKUNITLEAK_0123',
  'sk-ant-UNITLEAKUNITLEAKUNITLEAK01',
  'xoxb-UNITLEAK-0123456789',
  'AKIAUNITLEAKEXAMPLE0',
  'AIzaUNITLEAK012345678901234567890123456',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJVTklUTEVBSyJ9.UNITLEAKsignature01',
  'psql postgres://app:UNITLEAKpw@db/x',
  'Authorization: Bearer UNITLEAK0123456789',
  'curl -H "X-Up: Basic UNITLEAK1dXNlcjp"',
  'password = UNITLEAKshort',
  'API_KEY: "UNITLEAK1234"',
];
/** A key's shape: base64 lines of one width, the last no wider (mask-secrets.ts). */
const KEY = [
  '-----BEGIN RSA PRIVATE KEY-----',
  `UNITLEAK${'Ab0+'.repeat(14)}`,
  `${'cD9/'.repeat(16)}`,
  'UNITLEAKend',
  '-----END RSA PRIVATE KEY-----',
  'after',
].join('\n');
/** What a command may hold: a key block in one is shown whole, since any line of it could run. */
const COMMAND = SECRETS.join('\n');
const TEXT = [...SECRETS, KEY].join('\n');

/** The row with what the mask set written over it, as the job writes it. */
const applied = (row: Record<string, unknown>, set: Record<string, string | null> | undefined) => {
  const out = { ...row };
  for (const [k, v] of Object.entries(set ?? {}))
    out[k] =
      k === 'payload' || k === 'signature' || k === 'summary' || k === 'detail'
        ? v
        : v === null
          ? null
          : JSON.parse(v);
  return out;
};

describe('what a stored row becomes once masked', () => {
  it('a request: no secret left, ids kept, and masked again it is left alone', () => {
    const row = {
      machine_id: 'm',
      request_id: 'req-1',
      record: {
        requestId: 'req-1',
        sessionId: 'ses-1',
        command: COMMAND,
        description: TEXT,
        target: SECRETS[7],
        paths: [SECRETS[0]],
        context: { toolInput: { command: COMMAND } },
        picture: { omitted: [TEXT] },
      },
      rule_offers: [
        { id: 'a'.repeat(32), draft: { action: 'x', command: COMMAND }, describe: COMMAND },
      ],
    };
    const once = maskRequestRow(row, identity);
    expect(once.set).toBeDefined();
    const masked = applied(row, once.set);
    expect(JSON.stringify(masked)).not.toMatch(/UNITLEAK/);
    expect(masked.record).toMatchObject({ requestId: 'req-1', sessionId: 'ses-1' });
    expect((masked.rule_offers as { id: string }[])[0]!.id).toBe('a'.repeat(32));
    expect(maskRequestRow(masked, identity)).toEqual({});
  });

  it("a request's command keeps a key block whole: any line of it could run", () => {
    const record = { requestId: 'req-2', command: KEY, description: KEY };
    const masked = applied({ record }, maskRequestRow({ record }, identity).set);
    expect(masked.record).toEqual({
      requestId: 'req-2',
      command: KEY,
      description: '-----BEGIN PRIVATE KEY----- …[masked]\nafter',
    });
  });

  it('offers that no longer parse are masked string by string all the same', () => {
    const row = { record: { requestId: 'r' }, rule_offers: [{ junk: TEXT }] };
    const masked = applied(row, maskRequestRow(row, identity).set);
    expect(JSON.stringify(masked.rule_offers)).not.toMatch(/UNITLEAK/);
    expect(maskRequestRow(masked, identity)).toEqual({});
  });

  it('a decision: its reason and edit masked, its ids and offer kept, signed again by the hub', () => {
    const decision = HubDecision.parse({
      v: 2,
      decisionId: 'dec-12345678',
      machineId: 'm',
      requestId: 'req-1',
      decision: 'approve',
      scope: 'always',
      reason: `ok ${SECRETS[0]}`,
      terms: { edit: { input: { command: COMMAND } }, ruleOffer: 'b'.repeat(32) },
      person: 'ann',
      issuedAt: 1,
      expiresAt: 2,
    });
    const row = {
      decision_id: 'dec-12345678',
      payload: JSON.stringify(decision),
      signature: 'old',
      detail: `refused: ${TEXT}`,
    };
    const once = maskDecisionRow(row, identity);
    const masked = applied(row, once.set);
    expect(JSON.stringify(masked)).not.toMatch(/UNITLEAK/);
    const parsed = HubDecision.parse(JSON.parse(String(masked.payload)));
    expect(parsed).toMatchObject({
      decisionId: 'dec-12345678',
      requestId: 'req-1',
      scope: 'always',
      terms: { ruleOffer: 'b'.repeat(32) },
    });
    expect(
      verifyText(
        identity.publicKey,
        decisionText(String(masked.payload)),
        String(masked.signature),
      ),
    ).toBe(true);
    expect(maskDecisionRow(masked, identity)).toEqual({});
  });

  it('a plain decision with nothing to mask keeps its text and signature', () => {
    const payload = JSON.stringify({ v: 1, decisionId: 'dec-1', reason: 'fine' });
    expect(maskDecisionRow({ payload, signature: 's', detail: null }, identity)).toEqual({});
  });

  it('a shadow example and a notice title, within their bounds', () => {
    const shadow = { summary: `${'x'.repeat(250)} ${SECRETS[0]}` };
    const s = applied(shadow, maskShadowRow(shadow, identity).set);
    expect(String(s.summary)).not.toMatch(/UNITLEAK/);
    expect(String(s.summary).length).toBeLessThanOrEqual(300);
    expect(maskShadowRow(s, identity)).toEqual({});
    const notice = { notice: { title: COMMAND.replace(/\n/g, ' '), link: 'https://hub/r/1' } };
    const n = applied(notice, maskNoticeRow(notice, identity).set);
    expect(JSON.stringify(n)).not.toMatch(/UNITLEAK/);
    expect((n.notice as { link: string }).link).toBe('https://hub/r/1');
    expect(maskNoticeRow(n, identity)).toEqual({});
  });

  it('an audit row from before the chain is masked; a chained one is kept, and said so', () => {
    const before = { seq: 1, hash: null, data: { detail: TEXT } };
    const b = applied(before, maskAuditRow(before, identity).set);
    expect(JSON.stringify(b)).not.toMatch(/UNITLEAK/);
    expect(maskAuditRow(b, identity)).toEqual({});
    expect(maskAuditRow({ seq: 2, hash: 'ab', data: { rule: TEXT } }, identity)).toEqual({
      kept: true,
    });
    expect(maskAuditRow({ seq: 3, hash: 'ab', data: { name: 'ann' } }, identity)).toEqual({});
  });
});
