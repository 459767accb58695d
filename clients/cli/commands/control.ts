import type { Command } from 'commander';
import { Option } from 'commander';
import { localTime, table } from '../format';
import { agentsAwayText } from '../../../shared/agent-presence';
import type { ChannelHealth } from '../../../shared/protocol/admin-methods';
import { BUILT_IN_ACTIONS, closestAction } from '../known-actions';
import type { AdminClient } from '../admin-client';
import { Exit, printJson, UsageError, withAdmin } from '../run-admin';
import { getSettingByKey } from '../../../shared/settings/index';
import { settingValueFromText } from '../setting-value';
import { resolveHome } from '../../../shared/node/socket-path';
import { hubStatusLine } from './hub-join';
import { ruleMatchesText, teamPolicyLine, teamRulesTable } from '../team-policy-text';
import {
  addMatcherOptions,
  matchersFromOptions,
  type MatcherOptions,
} from '../rule-matcher-options';

/** One channel's health in a few words: `ntfy ok (last 12:04:31)`, `desktop unavailable: …`. */
function channelHealthText(h: ChannelHealth): string {
  const time = (at: string | undefined): string => (at ? localTime(at) : '');
  const last = h.lastDeliveryAt ? ` (last sent ${time(h.lastDeliveryAt)})` : '';
  const w = h.wayBack;
  const presses = !w
    ? ''
    : w.connected
      ? `, presses come back (since ${time(w.since)})`
      : `, presses NOT coming back since ${time(w.since)}${w.error ? `: ${w.error}` : ''}`;
  if (h.state === 'failing' || h.state === 'unavailable')
    return `${h.channel} ${h.state} since ${time(h.lastErrorAt)}: ${h.lastError ?? ''}${last}${presses}`;
  return `${h.channel} ${h.state}${last}${presses}`;
}

/** status, pause, resume, kill, rules, config: running Gatehouse from the terminal. */
export function registerControlCommands(program: Command): void {
  program
    .command('status')
    .description('Is Gatehouse running? Pending requests, sessions, agents')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withAdmin(async (c) => {
        const s = await c.call('status', {});
        if (o.json) return printJson(s);
        console.log(`Gatehouse ${s.version} running (pid ${s.pid}) on ${s.socketPath}`);
        console.log(
          `${s.pending} waiting for you${s.timedOut ? ` (${s.timedOut} timed out)` : ''}, ${s.activeSessions} active sessions, ${s.agents} agents${s.paused ? ', ALL AGENTS PAUSED' : ''}`,
        );
        const away = s.pendingAgentsAway ? agentsAwayText(s.pendingAgentsAway) : '';
        if (away) console.log(`Of those, ${away}: no agent acts on their answer now`);
        if (s.dashboardUrl) console.log(`Dashboard: ${s.dashboardUrl}`);
        const channels = (s.channels ?? []).filter((h) => h.enabled);
        if (channels.length)
          console.log(`Notifications: ${channels.map(channelHealthText).join('; ')}`);
        const hub = hubStatusLine(resolveHome());
        if (hub) console.log(hub);
        if (s.teamPolicy) console.log(teamPolicyLine(s.teamPolicy));
      }),
    );

  for (const [name, method, help] of [
    ['pause', 'pause', 'Pause one agent, or all agents when none is named'],
    ['resume', 'resume', 'Resume one agent, or all agents when none is named'],
    [
      'kill',
      'kill',
      'Kill one agent, or all agents: its waiting requests are cancelled ("agent killed") and every call but end is refused until resumed',
    ],
  ] as const) {
    program
      .command(name)
      .description(help)
      .argument('[agent]', 'agent name')
      .option('--reason <text>', 'told to the agent')
      .action((agent: string | undefined, o: { reason?: string }) =>
        withAdmin(async (c) => {
          if (method === 'resume' && agent && !(await isHeld(c, agent))) return;
          const r = await c.call(method, {
            ...(agent ? { agent } : {}),
            ...(o.reason ? { reason: o.reason } : {}),
          });
          console.log(`${agent ?? 'all agents'}: ${r.state}`);
        }),
      );
  }

  const rules = program
    .command('rules')
    .description('User rules that promote (auto) or demote (ask) actions');
  rules
    .command('list', { isDefault: true })
    .description('List the rules')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withAdmin(async (c) => {
        const { rules: list, team } = await c.call('rules.list', {});
        if (o.json) return printJson(list);
        if (team) {
          console.log(teamPolicyLine(team));
          console.log(teamRulesTable('TEAM RULE', team.rules, ACTION_WIDE));
        }
        if (!list.length) return void console.log('No rules.');
        console.log(
          table(
            ['ID', 'ACTION', 'TIER', 'MATCHES', 'PROJECT', 'SOURCE', 'NOTE'],
            list.map((r) => [
              r.ruleId,
              r.action,
              r.tier,
              ruleMatchesText(r, ACTION_WIDE),
              r.project ?? '(all)',
              r.source,
              r.note ?? '',
            ]),
          ),
        );
      }),
    );
  addMatcherOptions(
    rules
      .command('add')
      .description('Add a rule')
      .argument('<action>', 'action name, e.g. create_pull_request')
      .addOption(
        new Option('--tier <tier>', 'auto (no asking) or ask (required)').choices(['auto', 'ask']),
      ),
    "only when every path matches one of these globs, relative to --project (else the agent's project), never outside it (repeatable)",
  )
    .option('--note <text>', 'why')
    .option('--any-action', 'add the rule even if no agent has asked for this action yet')
    .action((action: string, o: RuleAddOptions) =>
      withAdmin(async (c) => {
        if (!o.tier)
          throw new UsageError(
            `rules add needs --tier: --tier auto (${action} runs without asking) or --tier ask (it always asks), e.g. gatehouse rules add ${action} --tier auto`,
          );
        if (!o.anyAction) await assertKnownAction(c, action);
        const { rule, description } = await c.call('rules.add', {
          action,
          tier: o.tier,
          ...matchersFromOptions(o),
          ...(o.note ? { note: o.note } : {}),
        });
        console.log(`added ${rule.ruleId}: ${rule.action} → ${rule.tier} (${description})`);
      }),
    );
  rules
    .command('remove')
    .description('Remove a rule')
    .argument('<id>', 'rule id')
    .action((ruleId: string) =>
      withAdmin(async (c) => {
        await c.call('rules.remove', { ruleId });
        console.log(`removed ${ruleId}`);
      }),
    );

  const config = program
    .command('config')
    .description('Read and change settings by dotted key (e.g. budgets.perDayUsd)');
  config
    .command('get')
    .description('Print one setting, or all of them')
    .argument('[key]', 'dotted key')
    .action((key: string | undefined) =>
      withAdmin(async (c) => {
        const r = await c.call('settings.get', key ? { key } : {});
        printJson(key ? r.value : r.settings);
      }),
    );
  config
    .command('set')
    .description(
      "Change a setting; the value is read by the setting's type: text as given, numbers, true/false, JSON for lists and objects",
    )
    .argument('<key>', 'dotted key')
    .argument('<value>', 'new value')
    .action((key: string, raw: string) =>
      withAdmin(async (c) => {
        const value = settingValueFromText(key, raw);
        const r = await c.call('settings.set', { key, value });
        console.log(`${key} = ${JSON.stringify(getSettingByKey(r.settings, key))}`);
      }),
    );
}

/** What the rule tables show for a rule without matchers: it covers its whole action. */
const ACTION_WIDE = '(action-wide)';

interface RuleAddOptions extends MatcherOptions {
  tier?: 'auto' | 'ask';
  note?: string;
  anyAction?: boolean;
}

/**
 * A rule for a misspelt action matches nothing and says so nowhere: refuse names that are
 * neither built in, nor MCP tools, nor asked for by an agent before, and name the closest.
 */
async function assertKnownAction(c: AdminClient, action: string): Promise<void> {
  if (BUILT_IN_ACTIONS.includes(action) || action.startsWith('mcp:')) return;
  const { requests } = await c.call('requests.query', { action, limit: 1 });
  if (requests.length) return;
  const closest = closestAction(action, BUILT_IN_ACTIONS);
  throw new UsageError(
    `unknown action "${action}"${closest ? ` (did you mean ${closest}?)` : ''}: no built-in action has this name and no agent has asked for it. ` +
      `Add --any-action to add the rule anyway. Built-in actions: ${BUILT_IN_ACTIONS.join(', ')}`,
  );
}

/**
 * Whether resuming `agent` would change anything. Says so and sets the exit code when it
 * would not: "resumed" for an agent that was never paused would be a false comfort.
 */
async function isHeld(c: AdminClient, agent: string): Promise<boolean> {
  const { agents } = await c.call('agents.list', {});
  const known = agents.find((a) => a.agent === agent);
  if (known && known.state !== 'running') return true;
  if (known) {
    console.log(`${agent}: was not paused; nothing to resume`);
    return false;
  }
  console.error(
    `gatehouse: no agent named ${agent} has connected or been paused; nothing to resume`,
  );
  process.exitCode = Exit.notFound;
  return false;
}
