import { describe, expect, it } from 'vitest';
import { DecisionChannel, type DecidedBy, type RequestStatus } from '../../../shared/domain';
import {
  Provenance,
  byPerson,
  decidedByOf,
  decisionOf,
  provenanceOfGrant,
  provenanceOfRequest,
  provenanceOfRule,
  ruleOf,
  type DecidedFields,
} from '../../../shared/provenance';

/**
 * Every form a request row was ever stored with: what wrote it, its columns, and the
 * provenance it must read as. Rows written before `decided_via` existed have none.
 */
const STORED: { what: string; row: DecidedFields; reads: Provenance | undefined }[] = [
  {
    what: 'waiting, nobody decided',
    row: { status: 'pending', rule: 'default:send_email' },
    reads: undefined,
  },
  {
    what: 'its agent stopped waiting',
    row: { status: 'timed_out', rule: 'default:send_email', decidedBy: null },
    reads: { kind: 'timeout' },
  },
  {
    what: 'a person, before channels were recorded',
    row: { status: 'approved', rule: 'default:send_email', decidedBy: 'human', decidedVia: null },
    reads: { kind: 'person' },
  },
  ...[...DecisionChannel.options[0].options, 'hub:alice' as const].map((via) => ({
    what: `a person via ${via}`,
    row: {
      status: 'denied' as RequestStatus,
      rule: 'default:push_git',
      decidedBy: 'human' as DecidedBy,
      decidedVia: via,
    },
    reads: { kind: 'person', via } as Provenance,
  })),
  {
    what: 'cancelled by a kill, its agent or retention',
    row: { status: 'cancelled', rule: 'default:push_git', decidedBy: 'system' },
    reads: { kind: 'system' },
  },
  {
    what: 'abandoned',
    row: { status: 'abandoned', rule: 'default:push_git', decidedBy: 'system' },
    reads: { kind: 'system' },
  },
  {
    what: 'a grant used up on filing',
    row: { status: 'approved', rule: 'grant:g-01HX', decidedBy: 'grant' },
    reads: { kind: 'grant', grantId: 'g-01HX' },
  },
  {
    what: 'the automation ladder',
    row: { status: 'approved', rule: 'ladder:level-2', decidedBy: 'policy' },
    reads: { kind: 'ladder', level: 2 },
  },
  ...['default:read_file', 'policy:allowed_commands', 'policy:allowed_files'].map((rule) => ({
    what: `the built-in table or a project gate (${rule})`,
    row: { status: 'approved' as RequestStatus, rule, decidedBy: 'policy' as DecidedBy },
    reads: { kind: 'policy', rule } as Provenance,
  })),
  ...['user:r-1', 'decision:r-2', 'project:allow_without_permission'].map((rule) => ({
    what: `a rule (${rule})`,
    row: { status: 'approved' as RequestStatus, rule, decidedBy: 'rule' as DecidedBy },
    reads: { kind: 'rule', rule } as Provenance,
  })),
];

describe('provenance: one definition of who or what decided', () => {
  it.each(STORED)('reads every stored form: $what', ({ row, reads }) => {
    const p = provenanceOfRequest(row);
    expect(p).toEqual(reads);
    if (p) expect(Provenance.parse(p)).toEqual(p);
  });

  it.each(STORED)('writes it back unchanged: $what', ({ row }) => {
    const p = provenanceOfRequest(row);
    if (!p) return expect(row.decidedBy ?? undefined).toBeUndefined();
    const columns = decisionOf(p);
    expect(columns.decidedBy).toBe(row.decidedBy ?? undefined);
    expect(columns.decidedVia).toBe(row.decidedVia ?? undefined);
    const rule = ruleOf(p);
    if (rule !== undefined) expect(rule).toBe(row.rule);
  });

  it('reads a grant row whose rule names no grant as a grant, not as something wider', () => {
    const p = provenanceOfRequest({ status: 'approved', rule: 'default:x', decidedBy: 'grant' });
    expect(p?.kind).toBe('grant');
    expect(decidedByOf(p!)).toBe('grant');
  });

  it('rule strings round-trip exactly, including ones no code writes today', () => {
    const rules = [
      'grant:g-1',
      'ladder:level-0',
      'ladder:level-12',
      'ladder:level-x',
      'default:unknown',
      'policy:blocked_commands',
      'shell:opaque',
      'protected:settings',
      'watch:tests',
      'project:untrusted',
      'user:r-9',
      'decision:r-9',
      'grant:',
      'no-prefix',
    ];
    for (const rule of rules) {
      const p = provenanceOfRule(rule);
      expect(Provenance.parse(p)).toEqual(p);
      expect(ruleOf(p)).toBe(rule);
    }
  });

  it('a rule string names the grant or ladder only by its prefix', () => {
    expect(provenanceOfRule('user:grant:g-1')).toEqual({ kind: 'rule', rule: 'user:grant:g-1' });
    expect(provenanceOfRule('decision:ladder:level-3').kind).toBe('rule');
    expect(provenanceOfRule('grant:').kind).toBe('rule');
  });

  it('maps what let an auto call through as the gate and the queue both did', () => {
    // The two decidedByOf functions this replaced agreed on every prefix an auto verdict has.
    const expected: Record<string, DecidedBy> = {
      'default:read_file': 'policy',
      'policy:allowed_commands': 'policy',
      'ladder:level-1': 'policy',
      'grant:g-1': 'grant',
      'user:r-1': 'rule',
      'decision:r-1': 'rule',
      'project:allow_without_permission': 'rule',
    };
    for (const [rule, by] of Object.entries(expected))
      expect(decidedByOf(provenanceOfRule(rule))).toBe(by);
  });

  it('an envelope is its own kind while known, and is stored as the grant it is', () => {
    const envelope = provenanceOfGrant({ grantId: 'g-7', kind: 'envelope' });
    expect(envelope).toEqual({ kind: 'envelope', grantId: 'g-7' });
    expect(provenanceOfGrant({ grantId: 'g-8', kind: 'session' })).toEqual({
      kind: 'grant',
      grantId: 'g-8',
    });
    expect(ruleOf(envelope)).toBe('grant:g-7');
    expect(decisionOf(envelope)).toEqual({ decidedBy: 'grant' });
    expect(provenanceOfRule(ruleOf(envelope))).toEqual({ kind: 'grant', grantId: 'g-7' });
  });

  it('every kind has a stored form that reads back as itself (an envelope as a grant)', () => {
    const all: Provenance[] = [
      { kind: 'person', via: 'link:ntfy' },
      { kind: 'person' },
      { kind: 'rule', rule: 'user:r-1' },
      { kind: 'grant', grantId: 'g-1' },
      { kind: 'ladder', level: 3 },
      { kind: 'policy', rule: 'default:read_file' },
      { kind: 'system' },
      { kind: 'timeout' },
    ];
    for (const p of all) {
      const row: DecidedFields = {
        status: p.kind === 'timeout' ? 'timed_out' : 'approved',
        rule: ruleOf(p) ?? 'default:send_email',
        ...decisionOf(p),
      };
      expect(provenanceOfRequest(row)).toEqual(p);
    }
  });

  it('the schema refuses what is not a provenance', () => {
    expect(Provenance.safeParse({ kind: 'person', via: 'carrier-pigeon' }).success).toBe(false);
    expect(Provenance.safeParse({ kind: 'admin' }).success).toBe(false);
    expect(Provenance.safeParse({ kind: 'ladder', level: -1 }).success).toBe(false);
    expect(Provenance.safeParse({ kind: 'grant', grantId: '' }).success).toBe(false);
  });

  it('byPerson: only a human decision counts as the person', () => {
    expect(byPerson({ decidedBy: 'human' })).toBe(true);
    for (const decidedBy of ['policy', 'rule', 'grant', 'system', undefined] as const)
      expect(byPerson({ decidedBy })).toBe(false);
  });
});
