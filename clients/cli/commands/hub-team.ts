import type { Command } from 'commander';
import { z } from 'zod';
import { Risk } from '../../../shared/domain';
import { DecisionRule, DecisionRuleDraft, describeRule } from '../../../shared/hub-decision-rules';
import { GroupName, PersonName } from '../../../shared/hub-protocol';
import { resolveHome } from '../../../shared/node/socket-path';
import { UsageError } from '../run-admin';
import { parsed, run } from './hub-command-run';
import { callHubAdmin, localHubAdmin } from './hub-http-client';

const GroupsAnswer = z.object({
  groups: z.array(
    z.object({
      name: z.string(),
      members: z.array(z.object({ name: z.string(), sources: z.array(z.string()) })),
    }),
  ),
});

const url = '--url <url>';
const urlHelp = 'the hub (default: the one running with this GATEHOUSE_HOME)';

/**
 * `gatehouse hub group …` and `gatehouse hub rule …`, the hub admin's commands on its host
 * (with the hub's admin token): groups of people made on the hub, and the team's decision
 * rules (who may decide what, how many must approve, escalation).
 */
export function registerHubTeamCommands(hub: Command): void {
  const group = hub.command('group').description('Groups of people on the hub');
  group
    .command('add')
    .description('Make a group')
    .argument('<name>', 'the group, e.g. ops')
    .option(url, urlHelp)
    .action((name: string, o: { url?: string }) =>
      run(async () => {
        const body = { name: parsed(GroupName, name, 'group') };
        const r = z
          .object({ created: z.boolean() })
          .parse(
            await callHubAdmin(
              localHubAdmin(resolveHome(), o.url),
              'POST',
              '/api/admin/groups',
              body,
            ),
          );
        console.log(
          r.created ? `Made group ${body.name}.` : `Group ${body.name} is there already.`,
        );
      }),
    );
  group
    .command('remove')
    .description('Remove a group and its memberships (refused while a team rule names it)')
    .argument('<name>', 'the group')
    .option(url, urlHelp)
    .action((name: string, o: { url?: string }) =>
      run(async () => {
        const body = { name: parsed(GroupName, name, 'group') };
        await callHubAdmin(
          localHubAdmin(resolveHome(), o.url),
          'POST',
          '/api/admin/groups/remove',
          body,
        );
        console.log(`Removed group ${body.name}.`);
      }),
    );
  group
    .command('list')
    .description(
      'List the groups and who is in them (and by which source: hub or identity provider)',
    )
    .option('--json', 'print JSON')
    .option(url, urlHelp)
    .action((o: { json?: boolean; url?: string }) =>
      run(async () => {
        const { groups } = GroupsAnswer.parse(
          await callHubAdmin(localHubAdmin(resolveHome(), o.url), 'GET', '/api/admin/groups'),
        );
        if (o.json) return console.log(JSON.stringify(groups, null, 2));
        if (groups.length === 0)
          return console.log('No groups yet (gatehouse hub group add NAME).');
        for (const g of groups)
          console.log(
            `${g.name}: ${g.members.map((m) => (m.sources.includes('hub') ? m.name : `${m.name} (identity provider)`)).join(', ') || 'nobody'}`,
          );
      }),
    );
  const member = group
    .command('member')
    .description("Who is in a group (the hub's own memberships)");
  for (const [verb, path, done] of [
    ['add', '/api/admin/groups/members', 'Added'],
    ['remove', '/api/admin/groups/members/remove', 'Removed'],
  ] as const)
    member
      .command(verb)
      .description(
        verb === 'add'
          ? 'Put a person in a group'
          : 'Take a person out of a group (what the identity provider gives stays)',
      )
      .argument('<group>', 'the group')
      .argument('<person>', 'the person')
      .option(url, urlHelp)
      .action((g: string, p: string, o: { url?: string }) =>
        run(async () => {
          const body = {
            group: parsed(GroupName, g, 'group'),
            person: parsed(PersonName, p, 'person'),
          };
          await callHubAdmin(localHubAdmin(resolveHome(), o.url), 'POST', path, body);
          console.log(`${done} ${body.person} ${verb === 'add' ? 'to' : 'from'} ${body.group}.`);
        }),
      );

  const rule = hub
    .command('rule')
    .description('Team decision rules: who may decide which requests, and how many must approve');
  rule.addHelpText(
    'after',
    `
A rule matches a request by every field it sets (--action, --min-risk, --project, --machine,
--agent; left out: any). When several match, the strictest applies (most approvals). A
request no rule matches may be decided by any approver.
Example: gatehouse hub rule add --action deploy --project prod --group ops --approvals 2 --exclude-owner`,
  );
  rule
    .command('add')
    .description('Add a team decision rule')
    .option('--action <action>', "the request's action (deploy, git_push …)")
    .option('--min-risk <risk>', `the request's risk is at least this (${Risk.options.join(', ')})`)
    .option('--project <project>', "the request's project: its path, or its last path segment")
    .option('--machine <name>', 'the machine that asked')
    .option('--agent <name>', 'the agent that asked')
    .option(
      '--group <group>',
      'a group whose members may decide (repeat for several)',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option('--approvals <n>', 'how many approvals it takes (one denial denies)', '1')
    .option('--exclude-owner', "the machine's owner may not approve")
    .option('--escalate-after <minutes>', 'after this long without a decision, page another group')
    .option('--escalate-to <group>', 'the group it escalates to (it may decide from then on)')
    .option('--json', 'print the rule as JSON')
    .option(url, urlHelp)
    .action(
      (o: {
        action?: string;
        minRisk?: string;
        project?: string;
        machine?: string;
        agent?: string;
        group?: string[];
        approvals: string;
        excludeOwner?: boolean;
        escalateAfter?: string;
        escalateTo?: string;
        json?: boolean;
        url?: string;
      }) =>
        run(async () => {
          if (!o.group?.length) throw new UsageError('name at least one --group that may decide');
          const draft = parsed(
            DecisionRuleDraft,
            {
              ...(o.action ? { action: o.action } : {}),
              ...(o.minRisk ? { minRisk: o.minRisk } : {}),
              ...(o.project ? { project: o.project } : {}),
              ...(o.machine ? { machine: o.machine } : {}),
              ...(o.agent ? { agent: o.agent } : {}),
              groups: o.group,
              approvals: parsed(z.coerce.number().int().min(1).max(10), o.approvals, '--approvals'),
              ...(o.excludeOwner ? { excludeOwner: true } : {}),
              ...(o.escalateAfter
                ? {
                    escalateAfterMinutes: parsed(
                      z.coerce.number().int(),
                      o.escalateAfter,
                      '--escalate-after',
                    ),
                  }
                : {}),
              ...(o.escalateTo ? { escalateTo: o.escalateTo } : {}),
            },
            'rule',
          );
          const r = z
            .object({ rule: DecisionRule })
            .parse(
              await callHubAdmin(
                localHubAdmin(resolveHome(), o.url),
                'POST',
                '/api/admin/rules',
                draft,
              ),
            );
          if (o.json) return console.log(JSON.stringify(r.rule, null, 2));
          console.log(`Added team rule ${r.rule.ruleId}: ${describeRule(r.rule)}`);
        }),
    );
  rule
    .command('list')
    .description('List the team decision rules, each with what it matches and what it asks for')
    .option('--json', 'print JSON')
    .option(url, urlHelp)
    .action((o: { json?: boolean; url?: string }) =>
      run(async () => {
        const { rules } = z
          .object({ rules: z.array(DecisionRule) })
          .parse(
            await callHubAdmin(localHubAdmin(resolveHome(), o.url), 'GET', '/api/admin/rules'),
          );
        if (o.json) return console.log(JSON.stringify(rules, null, 2));
        if (rules.length === 0)
          return console.log('No team rules: any approver may decide any request.');
        for (const r of rules) console.log(`${r.ruleId}  ${describeRule(r)}`);
      }),
    );
  rule
    .command('remove')
    .description('Remove a team decision rule')
    .argument('<id>', 'the rule (tr_…, from gatehouse hub rule list)')
    .option(url, urlHelp)
    .action((id: string, o: { url?: string }) =>
      run(async () => {
        const ruleId = parsed(
          z.string().regex(/^tr_[0-9a-f]{12}$/, 'a rule id such as tr_0123456789ab'),
          id,
          'rule',
        );
        await callHubAdmin(localHubAdmin(resolveHome(), o.url), 'POST', '/api/admin/rules/remove', {
          ruleId,
        });
        console.log(`Removed team rule ${ruleId}.`);
      }),
    );
}
