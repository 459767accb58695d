import type { Command } from 'commander';
import { sessionsTable, table } from '../format';
import { printJson, withAdmin } from '../run-admin';

/** sessions, summary, log: what agents did. */
export function registerSessionCommands(program: Command): void {
  program
    .command('sessions')
    .description('List agent sessions')
    .option('--active', 'only sessions still running')
    .option('--agent <name>', 'only this agent')
    .option('--limit <n>', 'how many', (v) => Number.parseInt(v, 10), 50)
    .option('--json', 'print JSON')
    .action((o: { active?: boolean; agent?: string; limit: number; json?: boolean }) =>
      withAdmin(async (c) => {
        const { sessions } = await c.call('sessions.list', {
          status: o.active ? 'active' : 'all',
          limit: o.limit,
          ...(o.agent ? { agent: o.agent } : {}),
        });
        if (o.json) printJson(sessions);
        else console.log(sessionsTable(sessions));
      }),
    );

  program
    .command('summary')
    .description("Print a session's summary (default: the most recently ended session)")
    .argument('[session]', 'session id')
    .option('--json', 'print JSON (summary, transcript and requests)')
    .action((sessionId: string | undefined, o: { json?: boolean }) =>
      withAdmin(async (c) => {
        let id = sessionId;
        if (!id) {
          const { sessions } = await c.call('sessions.list', { status: 'ended', limit: 1 });
          if (!sessions[0]) return void console.log('No session has ended yet.');
          id = sessions[0].sessionId;
        }
        const detail = await c.call('session.get', { sessionId: id });
        if (o.json) return printJson(detail);
        if (detail.summary) console.log(detail.summary.text);
        else
          console.log(
            `Session ${id} of ${detail.session.agent} is still ${detail.session.status}; ${detail.transcript.length} transcript entries, ${detail.requests.length} requests so far.`,
          );
      }),
    );

  program
    .command('log')
    .description('Show the audit log, newest first')
    .option('--type <type>', 'only this event type (e.g. request.approved)')
    .option('--session <id>', 'only this session')
    .option('--agent <name>', 'only this agent')
    .option('--limit <n>', 'how many', (v) => Number.parseInt(v, 10), 50)
    .option('--json', 'print JSON')
    .action(
      (o: { type?: string; session?: string; agent?: string; limit: number; json?: boolean }) =>
        withAdmin(async (c) => {
          const { events } = await c.call('audit.query', {
            limit: o.limit,
            ...(o.type ? { type: o.type } : {}),
            ...(o.session ? { sessionId: o.session } : {}),
            ...(o.agent ? { agent: o.agent } : {}),
          });
          if (o.json) return printJson(events);
          if (!events.length) return void console.log('No audit events.');
          console.log(
            table(
              ['SEQ', 'AT', 'TYPE', 'AGENT', 'REQUEST', 'DATA'],
              events.map((e) => [
                String(e.seq),
                e.at,
                e.type,
                e.agent ?? '',
                e.requestId ?? '',
                JSON.stringify(e.data).slice(0, 80),
              ]),
            ),
          );
        }),
    );
}
