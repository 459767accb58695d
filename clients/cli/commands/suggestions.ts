import type { Command } from 'commander';
import type { RuleSuggestion } from '../../../shared/protocol/suggestion-methods';
import type { AdminClient } from '../admin-client';
import { ago, localTime } from '../format';
import { printJson, withAdmin } from '../run-admin';

/** A suggestion as the terminal shows it: the exact rule, its history, how to act on it. */
export function formatSuggestion(s: RuleSuggestion): string {
  const agents = s.agents.map((a) => `${a.agent} (${a.approvals})`).join(', ');
  const channels = s.channels.map((c) => `${c.via} (${c.approvals})`).join(', ');
  return [
    `Suggestion ${s.key}: make it a rule?`,
    `  You approved ${s.approvals} times and never denied: ${s.description}`,
    `  Asked by ${agents} in ${s.sessionIds.length} session${s.sessionIds.length === 1 ? '' : 's'}; decided by a person each time, via ${channels}.`,
    `  First ${localTime(s.firstApprovedAt)}, last ${localTime(s.lastApprovedAt)} (${ago(s.lastApprovedAt)}).`,
    `  Requests: ${s.requestIds.join(', ')}`,
    `  Make it a rule: gatehouse suggestions accept ${s.key}    Not now: gatehouse suggestions snooze ${s.key}`,
  ].join('\n');
}

/** Prints the engine's suggestions (or nothing when there are none). */
export async function printSuggestions(
  c: AdminClient,
  o: { session?: string } = {},
): Promise<RuleSuggestion[]> {
  const { suggestions } = await c.call(
    'suggestions.list',
    o.session ? { sessionId: o.session } : {},
  );
  for (const s of suggestions) console.log(`\n${formatSuggestion(s)}`);
  return suggestions;
}

/** suggestions, suggestions accept KEY, suggestions snooze KEY: "make it a rule". */
export function registerSuggestionCommands(program: Command): void {
  const cmd = program
    .command('suggestions')
    .description(
      'Rules Gatehouse suggests: patterns you approved repeatedly and never denied (setting rules.suggestAfterApprovals)',
    );
  cmd
    .command('list', { isDefault: true })
    .description('List the current suggestions with their history')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withAdmin(async (c) => {
        if (o.json) return printJson((await c.call('suggestions.list', {})).suggestions);
        const shown = await printSuggestions(c);
        if (!shown.length) console.log('No suggestions.');
      }),
    );
  cmd
    .command('accept')
    .description(
      'Make a suggestion a rule (the exact rule it shows), or a wider one with --pattern',
    )
    .argument('<key>', 'the suggestion key (see `gatehouse suggestions`)')
    .option(
      '--pattern <pattern>',
      "cover this command instead of the exact one; end with ':*' for a prefix (e.g. 'git push:*')",
    )
    .action((key: string, o: { pattern?: string }) =>
      withAdmin(async (c) => {
        let draft;
        if (o.pattern !== undefined) {
          const { suggestions } = await c.call('suggestions.list', {});
          const s = suggestions.find((x) => x.key === key);
          if (s) {
            const { command: _c, commandPrefix: _p, ...rest } = s.draft;
            draft = o.pattern.trim().endsWith(':*')
              ? { ...rest, commandPrefix: o.pattern }
              : { ...rest, command: o.pattern };
          }
        }
        const { rule, description } = await c.call('suggestions.accept', {
          key,
          via: 'cli',
          draft,
        });
        console.log(`created rule ${rule.ruleId}: ${description}`);
      }),
    );
  cmd
    .command('snooze')
    .description('Not now: hide a suggestion for a while (setting rules.suggestionSnoozeDays)')
    .argument('<key>', 'the suggestion key')
    .action((key: string) =>
      withAdmin(async (c) => {
        const { snoozedUntil } = await c.call('suggestions.snooze', { key, via: 'cli' });
        console.log(`Suggestion ${key} hidden until ${localTime(snoozedUntil)}.`);
      }),
    );
}
