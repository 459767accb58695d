import type { Command } from 'commander';
import type { BreakerRow, BreakerTrip } from '../../../shared/protocol/guard-methods';
import { localTime, table } from '../format';
import { parseInteger } from '../options';
import { printJson, withAdmin } from '../run-admin';

const usd = (n: number): string => `$${n.toFixed(n !== 0 && Math.abs(n) < 1 ? 4 : 2)}`;
const limit = (n: number): string => (n > 0 ? usd(n) : 'no limit');

/** budgets, breakers, reset, recover, ladder: the guardrails from the command line. */
export function registerGuardCommands(program: Command): void {
  program
    .command('budgets')
    .description('Spend against budgets today, by model and by agent (US dollars)')
    .option('--days <n>', 'days of history', parseInteger, 7)
    .option('--json', 'print JSON')
    .action((o: { days: number; json?: boolean }) =>
      withAdmin(async (c) => {
        const b = await c.call('guards.budgets', { days: o.days });
        if (o.json) return printJson(b);
        console.log(
          `Today (${b.day}): ${usd(b.spent.dayUsd)} spent, ${usd(b.spent.reservedUsd)} reserved, ${b.spent.remainingDayUsd === undefined ? 'no daily limit' : `${usd(b.spent.remainingDayUsd)} left`}`,
        );
        console.log(
          `Limits: ${limit(b.limits.perDayUsd)} a day, ${limit(b.limits.perSessionUsd)} a session, ${limit(b.limits.perOperationUsd)} an operation; warnings at ${b.limits.warnAtPct}%`,
        );
        const rows = (list: typeof b.byModel) =>
          list.map((t) => [
            t.key,
            usd(t.costUsd),
            String(t.calls),
            String(t.inputTokens),
            String(t.outputTokens),
          ]);
        if (b.byModel.length)
          console.log(`\n${table(['MODEL', 'COST', 'CALLS', 'IN', 'OUT'], rows(b.byModel))}`);
        if (b.byAgent.length)
          console.log(`\n${table(['AGENT', 'COST', 'CALLS', 'IN', 'OUT'], rows(b.byAgent))}`);
        if (b.days.length)
          console.log(`\n${table(['DAY', 'COST', 'CALLS', 'IN', 'OUT'], rows(b.days))}`);
      }),
    );

  program
    .command('breakers')
    .description('Circuit breakers and guards that are open, half-open or have tripped')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withAdmin(async (c) => {
        const { breakers, recentTrips } = await c.call('guards.breakers', {});
        // The same two parts the text shows, under the same names.
        if (o.json) return printJson({ breakers: openFirst(breakers), recentTrips });
        printBreakers(breakers);
        printRecentTrips(recentTrips);
      }),
    );

  program
    .command('reset')
    .description(
      'Reset a breaker by the name `gatehouse breakers` shows (e.g. provider:openai, run:SESSION)',
    )
    .argument('<breaker>', 'breaker name')
    .option('--false-positive', 'the trip was wrong (counts against the automation ladder)')
    .option('--json', 'print JSON')
    .action((name: string, o: { falsePositive?: boolean; json?: boolean }) =>
      withAdmin(async (c) => {
        const r = await c.call('guards.reset', { name, falsePositive: !!o.falsePositive });
        if (o.json) return printJson(r);
        console.log(
          r.reset.length ? `reset: ${r.reset.join(', ')}` : `nothing to reset for ${name}`,
        );
      }),
    );

  program
    .command('recover')
    .description('Take a session out of conservative mode (the safety switch) by hand')
    .argument('<session>', 'session id')
    .action((sessionId: string) =>
      withAdmin(async (c) => {
        const r = await c.call('guards.recover', { sessionId });
        console.log(
          r.recovered
            ? `${sessionId}: back to ${r.mode}`
            : `${sessionId}: still ${r.mode}${r.reason ? ` (${r.reason})` : ''}`,
        );
      }),
    );

  program
    .command('ladder')
    .description('Show the automation level of a project, or set it with --set')
    .option('--project <dir>', 'project directory (default: agents without a project)')
    .option('--set <level>', 'set the level (0-4)', parseInteger)
    .option('--reason <text>', 'why, for the audit log')
    .option('--json', 'print JSON')
    .action((o: { project?: string; set?: number; reason?: string; json?: boolean }) =>
      withAdmin(async (c) => {
        const project = o.project ? { project: o.project } : {};
        const r =
          o.set === undefined
            ? await c.call('ladder.get', project)
            : await c.call('ladder.set', {
                ...project,
                level: o.set,
                ...(o.reason ? { reason: o.reason } : {}),
              });
        if (o.json) return printJson(r);
        console.log(`${r.project}: level ${r.level} (${r.name}) — ${r.description}`);
        const m = r.metrics;
        console.log(
          `runs ${m.successfulRuns}/${m.totalRuns} ok, approvals ${m.approvals}/${m.decisions}, false positives ${m.falsePositives}, missed critical bugs ${m.missedCriticalBugs}; automatic changes ${r.autoChanges ? 'on' : 'off'}`,
        );
      }),
    );
}

const STATE_ORDER: Record<BreakerRow['state'], number> = { open: 0, half_open: 1, closed: 2 };

/** Open breakers first, then half-open (probing), then the closed ones that have a row. */
const openFirst = (rows: BreakerRow[]): BreakerRow[] =>
  rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => STATE_ORDER[a.row.state] - STATE_ORDER[b.row.state] || a.i - b.i)
    .map(({ row }) => row);

/** The breakers' part of `gatehouse breakers`: its heading, then the table or "none". */
function printBreakers(rows: BreakerRow[]): void {
  console.log('Breakers now (open first):');
  if (!rows.length) return void console.log('  none open or half-open\n');
  console.log(
    table(
      ['NAME', 'STATE', 'REASON', 'CURRENT', 'THRESHOLD', 'RETRY IN'],
      openFirst(rows).map((b) => [
        b.name,
        b.state,
        b.reason ?? '',
        String(b.current),
        String(b.threshold),
        b.retryInMs === undefined ? '' : `${Math.ceil(b.retryInMs / 1000)}s`,
      ]),
    ),
  );
  console.log('');
}

/** Trips of the last day, newest first: they stay visible after their breaker closed. */
function printRecentTrips(trips: BreakerTrip[]): void {
  console.log('Recent trips (last 24 hours, newest first):');
  if (!trips.length) return void console.log('  none');
  console.log(
    table(
      ['WHEN', 'BREAKER', 'REASON', 'AGENT', 'AT', 'SUGGESTION'],
      trips.map((t) => [
        localTime(t.at),
        t.breaker,
        t.reason ?? '',
        t.agent ?? '',
        t.current === undefined ? '' : `${t.current}/${t.threshold ?? '?'}`,
        t.suggestion ?? '',
      ]),
    ),
  );
}
