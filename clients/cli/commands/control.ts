import type { Command } from 'commander';
import { Option } from 'commander';
import { table } from '../format';
import { printJson, withAdmin } from '../run-admin';
import type { RuleRecord } from '../../../shared/domain';

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
            ['ID', 'ACTION', 'TIER', 'MATCHES', 'PROJECT', 'SOURCE', 'NOTE'],
            list.map((r) => [
              r.ruleId,
              r.action,
              r.tier,
              ruleMatches(r),
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
    .option('--command <command>', 'only this exact command (whitespace-normalised)')
    .option('--pattern <prefix:*>', "only commands starting with these words, e.g. 'git push:*'")
    .option('--target <target>', 'only this exact target')
    .option(
      '--path <glob>',
      'only when every path matches one of these globs, relative to --project (repeatable)',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option('--note <text>', 'why')
    .action(
      (
        action: string,
        o: {
          tier: 'auto' | 'ask';
          project?: string;
          command?: string;
          pattern?: string;
          target?: string;
          path?: string[];
          note?: string;
        },
      ) =>
        withAdmin(async (c) => {
          const { rule, description } = await c.call('rules.add', {
            action,
            tier: o.tier,
            ...(o.project ? { project: o.project } : {}),
            ...(o.command ? { command: o.command } : {}),
            ...(o.pattern ? { commandPrefix: o.pattern } : {}),
            ...(o.target ? { target: o.target } : {}),
            ...(o.path?.length ? { paths: o.path } : {}),
            ...(o.note ? { note: o.note } : {}),
          });
          console.log(`added ${rule.ruleId}: ${description} → ${rule.tier}`);
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
        console.log(
          `${key} = ${JSON.stringify(key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], r.settings))}`,
        );
      }),
    );
}

/** A rule's matchers for the table; a rule without any covers its whole action. */
function ruleMatches(r: RuleRecord): string {
  const parts: string[] = [];
  if (r.command) parts.push(`command \`${r.command}\``);
  if (r.commandPrefix) parts.push(`command \`${r.commandPrefix}:*\``);
  if (r.target) parts.push(`target ${r.target}`);
  if (r.paths) parts.push(`paths ${r.paths.join(', ')}`);
  return parts.length ? parts.join('; ') : '(action-wide)';
}
