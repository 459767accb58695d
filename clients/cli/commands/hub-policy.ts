import type { Command } from 'commander';
import { Option } from 'commander';
import { z } from 'zod';
import { resolveHome } from '../../../shared/node/socket-path';
import { TeamRule, TeamRuleId } from '../../../shared/policy/team-policy';
import { table } from '../format';
import { UsageError } from '../run-admin';
import {
  addMatcherOptions,
  matchersFromOptions,
  type MatcherOptions,
} from '../rule-matcher-options';
import { ruleMatchesText, teamRulesTable } from '../team-policy-text';
import { parsed, run } from './hub-command-run';
import { callHubAdmin, localHubAdmin } from './hub-http-client';

const ListResult = z.object({
  rules: z.array(TeamRule),
  published: z.object({ version: z.number(), at: z.number() }).optional(),
  machines: z.array(z.object({ name: z.string(), version: z.number() })),
});
const ReportResult = z.object({
  counts: z.array(
    z.object({
      ruleId: z.string(),
      would: z.string(),
      actual: z.string(),
      count: z.number(),
      machines: z.number(),
    }),
  ),
  examples: z.array(
    z.object({
      ruleId: z.string(),
      machine: z.string(),
      would: z.string(),
      actual: z.string(),
      action: z.string(),
      summary: z.string(),
      agent: z.string().optional(),
      at: z.number(),
    }),
  ),
});

/** `7d`, `12h`, `30m` as milliseconds. */
function durationMs(text: string): number {
  const m = /^(\d{1,4})([dhm])$/.exec(text.trim());
  if (!m) throw new UsageError(`--since ${text}: give a number and d, h or m, e.g. 7d`);
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  return Number(m[1]) * unit;
}

/** What the hub's tables show for a rule without matchers. */
const ALL = '(all)';
const matchesText = (r: TeamRule) => ruleMatchesText(r, ALL);

/**
 * `gatehouse hub policy …` on the hub's host: the team's rules (same language as a machine's
 * `gatehouse rules`, asking or denying only), published as a signed, versioned bundle to
 * every joined machine, and the report of what rules in shadow would have changed.
 */
export function registerHubPolicyCommands(hub: Command): void {
  const url = '--url <url>';
  const urlHelp = 'the hub (default: the one running with this GATEHOUSE_HOME)';
  const policy = hub
    .command('policy')
    .description('Team rules pushed to every joined machine (they outrank local rules)');

  addMatcherOptions(
    policy
      .command('add')
      .description('Add a team rule (published with the next `hub policy publish`)')
      .argument('<action>', 'action name, e.g. git_push')
      .addOption(
        new Option('--tier <tier>', 'ask (a person decides each time) or deny')
          .choices(['ask', 'deny'])
          .makeOptionMandatory(),
      ),
    'only when every path matches one of these globs (repeatable)',
  )
    .option('--shadow', 'record what it would decide on the machines, without enforcing it')
    .option('--note <text>', 'why, shown with the rule on the machines')
    .option(url, urlHelp)
    .action(
      (
        action: string,
        o: MatcherOptions & {
          tier: 'ask' | 'deny';
          shadow?: boolean;
          note?: string;
          url?: string;
        },
      ) =>
        run(async () => {
          const body = {
            action,
            tier: o.tier,
            mode: o.shadow ? 'shadow' : 'enforce',
            ...matchersFromOptions(o),
            ...(o.note ? { note: o.note } : {}),
          };
          const admin = localHubAdmin(resolveHome(), o.url);
          const { rule } = z
            .object({ rule: TeamRule })
            .parse(await callHubAdmin(admin, 'POST', '/api/admin/policy/add', body));
          console.log(
            `Added team rule ${rule.ruleId}: ${rule.action} ${rule.tier} (${matchesText(rule)})${rule.mode === 'shadow' ? ', in shadow' : ''}. Publish it: gatehouse hub policy publish`,
          );
        }),
    );

  policy
    .command('list')
    .description('List the team rules and the version the machines were last sent')
    .option('--json', 'print JSON')
    .option(url, urlHelp)
    .action((o: { json?: boolean; url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        const r = ListResult.parse(await callHubAdmin(admin, 'GET', '/api/admin/policy'));
        if (o.json) return console.log(JSON.stringify(r, null, 2));
        console.log(
          r.published
            ? `Published: version ${r.published.version} at ${new Date(r.published.at).toISOString()}`
            : 'Not published yet (gatehouse hub policy publish).',
        );
        if (r.machines.length)
          console.log(
            `Machines: ${r.machines.map((m) => `${m.name} ${m.version ? `v${m.version}` : 'none'}${r.published && m.version < r.published.version ? ' (behind)' : ''}`).join(', ')}`,
          );
        if (r.rules.length === 0) return console.log('No team rules.');
        console.log(teamRulesTable('ID', r.rules, ALL));
      }),
    );

  policy
    .command('remove')
    .description('Remove a team rule (gone from the machines at the next publish)')
    .argument('<id>', 'the rule id (tr-…)')
    .option(url, urlHelp)
    .action((id: string, o: { url?: string }) =>
      run(async () => {
        const ruleId = parsed(TeamRuleId, id, 'id');
        const admin = localHubAdmin(resolveHome(), o.url);
        await callHubAdmin(admin, 'POST', '/api/admin/policy/remove', { ruleId });
        console.log(`Removed team rule ${ruleId}. Publish to take it off the machines.`);
      }),
    );

  for (const [name, mode, help] of [
    ['enforce', 'enforce', 'Turn a rule in shadow on (at the next publish)'],
    ['shadow', 'shadow', 'Put a rule back in shadow (at the next publish)'],
  ] as const)
    policy
      .command(name)
      .description(help)
      .argument('<id>', 'the rule id (tr-…)')
      .option(url, urlHelp)
      .action((id: string, o: { url?: string }) =>
        run(async () => {
          const ruleId = parsed(TeamRuleId, id, 'id');
          const admin = localHubAdmin(resolveHome(), o.url);
          await callHubAdmin(admin, 'POST', '/api/admin/policy/mode', { ruleId, mode });
          console.log(`Team rule ${ruleId}: ${mode}. Publish to send it to the machines.`);
        }),
      );

  policy
    .command('publish')
    .description('Sign the rules as a new version and send it to every joined machine')
    .option(url, urlHelp)
    .action((o: { url?: string }) =>
      run(async () => {
        const admin = localHubAdmin(resolveHome(), o.url);
        const r = z
          .object({ version: z.number(), rules: z.number() })
          .parse(await callHubAdmin(admin, 'POST', '/api/admin/policy/publish', {}));
        console.log(`Published team policy version ${r.version} (${r.rules} rules).`);
      }),
    );

  policy
    .command('shadow-report')
    .description('What rules in shadow would have decided differently, counted by outcome')
    .option('--rule <id>', 'one rule only')
    .option('--since <duration>', 'how far back: 7d, 24h, 30m', '7d')
    .option('--json', 'print JSON')
    .option(url, urlHelp)
    .action((o: { rule?: string; since: string; json?: boolean; url?: string }) =>
      run(async () => {
        const query = new URLSearchParams({ sinceMs: String(durationMs(o.since)) });
        if (o.rule) query.set('rule', parsed(TeamRuleId, o.rule, '--rule'));
        const admin = localHubAdmin(resolveHome(), o.url);
        const r = ReportResult.parse(
          await callHubAdmin(admin, 'GET', `/api/admin/policy/shadow?${query.toString()}`),
        );
        if (o.json) return console.log(JSON.stringify(r, null, 2));
        if (r.counts.length === 0)
          return console.log(`No call in the last ${o.since} would have been decided otherwise.`);
        console.log(
          table(
            ['RULE', 'WOULD', 'GOT', 'CALLS', 'MACHINES'],
            r.counts.map((c) => [c.ruleId, c.would, c.actual, String(c.count), String(c.machines)]),
          ),
        );
        console.log('Examples, newest first:');
        for (const e of r.examples)
          console.log(
            `  ${new Date(e.at).toISOString()}  ${e.machine}${e.agent ? `/${e.agent}` : ''}  ${e.ruleId} would ${e.would}, got ${e.actual}: ${e.action} ${e.summary}`,
          );
      }),
    );
}
