import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RuleRecord } from '../../../../../shared/domain';
import { ATTACK_CLASSES } from '../../../../fixtures/attack-corpus';
import { commandClassifier, type CommandVerdict } from '../../../../support/command-verdict';

let verdict: (command: string, rules?: RuleRecord[]) => CommandVerdict;
beforeAll(async () => {
  ({ verdict } = await commandClassifier());
});

/** What the person is shown for each candidate that asks: action, target, rule and reason. */
const asked = (v: CommandVerdict): string =>
  v.candidates
    .filter((c) => c.verdict.tier === 'ask')
    .map((c) => `${c.spec.action} ${c.spec.target ?? ''} ${c.verdict.rule}: ${c.verdict.reason}`)
    .join('\n');

describe('the attack corpus', () => {
  it('holds at least 150 attacks in every class', () => {
    const total = ATTACK_CLASSES.reduce((n, c) => n + c.attacks.length, 0);
    expect(total).toBeGreaterThanOrEqual(150);
    for (const c of ATTACK_CLASSES) expect(c.attacks.length).toBeGreaterThanOrEqual(10);
  });

  for (const c of ATTACK_CLASSES) {
    describe(c.name, () => {
      it.each(c.attacks.map((a) => [a.command, a.reason] as const))(
        '%s asks',
        (command, reason) => {
          const v = verdict(command);
          expect(v.tier, `${command} was auto-allowed`).toBe('ask');
          if (reason) expect(asked(v)).toContain(reason);
          // Running Gatehouse or signalling its daemon is critical: no rule can allow it.
          if (reason === 'change_gatehouse_policy')
            expect(v.candidates.some((x) => x.verdict.risk === 'critical')).toBe(true);
        },
      );
    });
  }
});

const rule = (r: Pick<RuleRecord, 'action' | 'tier'> & Partial<RuleRecord>): RuleRecord => ({
  ruleId: `r-${r.action}-${r.command ?? 'wide'}`,
  source: 'user',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...r,
});

describe("the person's rules and unproven commands", () => {
  const command = 'sort -o sorted.txt names.txt';

  it('a rule for exactly that command allows it on purpose', () => {
    expect(verdict(command).tier).toBe('ask');
    const narrow = rule({ action: 'run_command', tier: 'auto', command });
    expect(verdict(command, [narrow]).tier).toBe('auto');
    // The narrow rule covers that command only.
    expect(verdict('sort -o other.txt names.txt', [narrow]).tier).toBe('ask');
  });

  it('a rule allowing every command or every read does not cover an unproven one', () => {
    const wide = [
      rule({ action: 'run_command', tier: 'auto' }),
      rule({ action: 'read_file', tier: 'auto' }),
    ];
    for (const c of [command, `awk 'BEGIN{system("id")}'`, 'git -c core.fsmonitor=x status']) {
      const v = verdict(c, wide);
      expect(v.tier, c).toBe('ask');
      expect(asked(v)).toContain('shell:opaque');
    }
  });

  it('no rule allows a command whose words the shell parser reads otherwise than bash', () => {
    // A rule with a matcher lets an opaque command through on purpose; a misread word is not
    // one: the files bash opens are not the words the rule was matched against.
    for (const c of [
      'cat README.md $',
      'cat a[\\!]x/README.md',
      'cat [ ]x/README.md',
      // `!` negates only as a word of its own: bash runs a program named `!cat` here.
      "!'cat' README.md",
      '!"cat" README.md',
      "true && !'ls' -la",
    ]) {
      const narrow = [
        rule({ action: 'read_file', tier: 'auto', paths: ['**'] }),
        rule({ action: 'run_command', tier: 'auto', command: c }),
      ];
      const v = verdict(c, narrow);
      expect(v.tier, c).toBe('ask');
      expect(asked(v), c).toContain('protected:unresolved_path');
    }
  });

  it('no rule allows running gatehouse rules add', () => {
    const c = 'gatehouse rules add git_push --tier auto';
    const everything = [
      rule({ action: 'change_gatehouse_policy', tier: 'auto' }),
      rule({ action: 'change_gatehouse_policy', tier: 'auto', command: c }),
    ];
    expect(verdict(c, everything).tier).toBe('ask');
  });
});

describe('a `!` written against a quoted program name', () => {
  it('is part of the name to bash, which runs the program `!cat`, never `cat`', () => {
    const bin = mkdtempSync(join(tmpdir(), 'gh-bang-'));
    try {
      writeFileSync(join(bin, '!cat'), '#!/bin/sh\necho "ran !cat on $1"\n', { mode: 0o755 });
      const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
      const ran = (c: string) => spawnSync('bash', ['-c', c], { env, encoding: 'utf8' }).stdout;
      expect(ran("!'cat' README.md")).toBe('ran !cat on README.md\n');
      expect(ran('!"cat" README.md')).toBe('ran !cat on README.md\n');
      // With a space it is the negation the parser sees.
      expect(ran("! 'cat' /dev/null")).toBe('');
      expect(verdict("! 'cat' README.md").tier).toBe('auto');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
