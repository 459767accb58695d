import type { Command } from 'commander';
import { Option } from 'commander';
import { table } from '../format';
import { printJson, withAdmin } from '../run-admin';
import { getSettingByKey } from '../../../shared/settings/index';

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
          `${s.pending} pending, ${s.activeSessions} active sessions, ${s.agents} agents${s.paused ? ', ALL AGENTS PAUSED' : ''}`,
        );
        if (s.dashboardUrl) console.log(`Dashboard: ${s.dashboardUrl}`);
      }),
    );

  for (const [name, method, help] of [
    ['pause', 'pause', 'Pause one agent, or all agents when none is named'],
    ['resume', 'resume', 'Resume one agent, or all agents when none is named'],
    ['kill', 'kill', 'Kill one agent, or all agents: every call but end is refused until resumed'],
  ] as const) {
    program
      .command(name)
      .description(help)
      .argument('[agent]', 'agent name')
      .option('--reason <text>', 'told to the agent')
      .action((agent: string | undefined, o: { reason?: string }) =>
        withAdmin(async (c) => {
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
        const { rules: list } = await c.call('rules.list', {});
        if (o.json) return printJson(list);
        if (!list.length) return void console.log('No rules.');
        console.log(
          table(
            ['ID', 'ACTION', 'TIER', 'PROJECT', 'SOURCE', 'NOTE'],
            list.map((r) => [
              r.ruleId,
              r.action,
              r.tier,
              r.project ?? '(all)',
              r.source,
              r.note ?? '',
            ]),
          ),
        );
      }),
    );
  rules
    .command('add')
    .description('Add a rule')
    .argument('<action>', 'action name, e.g. create_pull_request')
    .addOption(
      new Option('--tier <tier>', 'auto (no asking) or ask')
        .choices(['auto', 'ask'])
        .makeOptionMandatory(),
    )
    .option('--project <dir>', 'only in this project directory')
    .option('--note <text>', 'why')
    .action((action: string, o: { tier: 'auto' | 'ask'; project?: string; note?: string }) =>
      withAdmin(async (c) => {
        const { rule } = await c.call('rules.add', {
          action,
          tier: o.tier,
          ...(o.project ? { project: o.project } : {}),
          ...(o.note ? { note: o.note } : {}),
        });
        console.log(`added ${rule.ruleId}: ${rule.action} → ${rule.tier}`);
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
      'Change a setting; the value is read as JSON when it parses (numbers, true/false), else as text',
    )
    .argument('<key>', 'dotted key')
    .argument('<value>', 'new value')
    .action((key: string, raw: string) =>
      withAdmin(async (c) => {
        let value: unknown = raw;
        try {
          value = JSON.parse(raw);
        } catch {
          /* plain text, e.g. 22:00 */
        }
        const r = await c.call('settings.set', { key, value });
        console.log(`${key} = ${JSON.stringify(getSettingByKey(r.settings, key))}`);
      }),
    );
}
