import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ago, clip, localTime, sessionsTable, table } from '../format';
import type { RequestRecord } from '../../../shared/domain';
import { byPerson } from '../../../shared/provenance';
import type { AdminClient } from '../admin-client';
import { limitOption } from '../options';
import { printJson, withAdmin } from '../run-admin';
import { printSuggestions } from './suggestions';

/** sessions, summary, log: what agents did. */
export function registerSessionCommands(program: Command): void {
  program
    .command('sessions')
    .description('List agent sessions')
    .option('--active', 'only sessions still running')
    .option('--agent <name>', 'only this agent')
    .addOption(limitOption('how many', 50))
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
    .option(
      '--json',
      'print JSON: summary, the newest 200 transcript entries and 100 requests, their totals',
    )
    .option('--all', 'with --json: every transcript entry and request, read a page at a time')
    .action((sessionId: string | undefined, o: { json?: boolean; all?: boolean }) =>
      withAdmin(async (c) => {
        const id = sessionId ?? (await lastEndedSession(c));
        if (!id) return void console.log('No session has ended yet.');
        if (o.json && o.all) return printJson(await wholeSession(c, id));
        const detail = await c.call(
          'session.get',
          o.json ? { sessionId: id } : { sessionId: id, requestsLimit: 0, transcriptLimit: 0 },
        );
        if (o.json) return printJson(detail);
        if (detail.summary) console.log(detail.summary.text);
        else
          console.log(
            `Session ${id} of ${detail.session.agent} is still ${detail.session.status}; ${detail.transcriptTotal} transcript entries, ${detail.requestsTotal} requests so far.`,
          );
      }),
    );

  program
    .command('report')
    .description(
      "A session's report in Markdown: goal and agent, timeline, every request and who decided it, breaker trips with evidence, spend by model, what is still waiting, next steps",
    )
    .argument('[session]', 'session id (default: the most recently ended session)')
    .option('--out <file>', 'write the report to this file instead of printing it')
    .action((sessionId: string | undefined, o: { out?: string }) =>
      withAdmin(async (c) => {
        const id = sessionId ?? (await lastEndedSession(c));
        if (!id) return void console.log('No session has ended yet.');
        const { markdown } = await c.call('session.report', { sessionId: id });
        if (!o.out) return void process.stdout.write(markdown);
        writeFileSync(o.out, markdown);
        console.log(`Wrote the report of ${id} to ${o.out} (${markdown.length} characters).`);
      }),
    );

  program
    .command('log')
    .description(
      'Decision history, newest first, with rule suggestions; --audit shows the full audit log',
    )
    .option('--audit', 'the audit log of every change instead of decisions')
    .option('--type <type>', 'only this audit event type (e.g. request.approved); implies --audit')
    .option('--session <id>', 'only this session')
    .option('--agent <name>', 'only this agent')
    .addOption(limitOption('how many', 50))
    .option('--json', 'print JSON')
    .action((o: LogOptions) =>
      // Event types are the audit log's: --type shows the audit log rather than being ignored.
      withAdmin((c) => (o.audit || o.type !== undefined ? printAudit(c, o) : printDecisions(c, o))),
    );
}

interface LogOptions {
  audit?: boolean;
  type?: string;
  session?: string;
  agent?: string;
  limit: number;
  json?: boolean;
}

async function printAudit(c: AdminClient, o: LogOptions): Promise<void> {
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
      ['SEQ', 'AT', 'AGO', 'TYPE', 'AGENT', 'REQUEST', 'DATA'],
      events.map((e) => [
        String(e.seq),
        localTime(e.at),
        ago(e.at),
        e.type,
        e.agent ?? '',
        e.requestId ?? '',
        clip(JSON.stringify(e.data), 80),
      ]),
    ),
  );
}

/**
 * Orders decisions newest first by the audit sequence of the decision itself: decision times
 * tie within a millisecond (several requests decided together) and requests are stored in
 * the order they were filed, not decided.
 */
async function newestDecisionFirst(
  c: AdminClient,
  decisions: RequestRecord[],
  o: LogOptions,
): Promise<RequestRecord[]> {
  const seqOf = new Map<string, number>();
  for (const type of ['request.approved', 'request.denied']) {
    const { events } = await c.call('audit.query', {
      type,
      limit: Math.max(o.limit, 500),
      ...(o.session ? { sessionId: o.session } : {}),
      ...(o.agent ? { agent: o.agent } : {}),
    });
    for (const e of events) if (e.requestId) seqOf.set(e.requestId, e.seq);
  }
  const decidedMs = (r: RequestRecord) => (r.decidedAt ? Date.parse(r.decidedAt) : 0);
  return [...decisions].sort((a, b) => {
    const sa = seqOf.get(a.requestId);
    const sb = seqOf.get(b.requestId);
    if (sa !== undefined && sb !== undefined) return sb - sa;
    return decidedMs(b) - decidedMs(a);
  });
}

async function printDecisions(c: AdminClient, o: LogOptions): Promise<void> {
  const { requests } = await c.call('requests.query', {
    status: ['approved', 'denied', 'cancelled'],
    limit: Math.max(o.limit, 500),
    ...(o.agent ? { agent: o.agent } : {}),
    ...(o.session ? { sessionId: o.session } : {}),
  });
  const human = await newestDecisionFirst(
    c,
    requests.filter((r) => byPerson(r)),
    o,
  );
  // Suggestions are the engine's (rule-suggestions.ts): the same answer as the dashboard's.
  if (o.json) {
    const { suggestions } = await c.call(
      'suggestions.list',
      o.session ? { sessionId: o.session } : {},
    );
    return printJson({ decisions: human.slice(0, o.limit), suggestions });
  }
  if (!human.length) console.log('No human decisions yet.');
  else
    console.log(
      table(
        ['DECIDED', 'AGO', 'STATUS', 'AGENT', 'ACTION', 'DESCRIPTION', 'WHY'],
        human
          .slice(0, o.limit)
          .map((r) => [
            r.decidedAt ? localTime(r.decidedAt) : '',
            r.decidedAt ? ago(r.decidedAt) : '',
            r.status + (r.scope && r.status === 'approved' ? ` (${r.scope})` : ''),
            r.agent,
            r.action,
            clip(r.description, 50),
            clip(r.reason ?? r.message ?? '', 60),
          ]),
      ),
    );
  await printSuggestions(c, o);
}

/** Entries and requests each page of `summary --json --all` reads. */
const WHOLE_PAGE = 1000;

/**
 * A session with every transcript entry and request (oldest first, as `session.get` orders
 * them), read a page at a time so that no one answer of the daemon grows with the session.
 */
async function wholeSession(c: AdminClient, sessionId: string) {
  const detail = await c.call('session.get', { sessionId, requestsLimit: 0, transcriptLimit: 0 });
  const transcript = [];
  const requests = [];
  let cursor: string | undefined;
  do {
    const page = await c.call('session.transcript', {
      sessionId,
      limit: WHOLE_PAGE,
      cursor,
    });
    transcript.push(...page.transcript);
    cursor = page.nextCursor;
  } while (cursor);
  do {
    const page = await c.call('requests.query', {
      sessionId,
      limit: WHOLE_PAGE,
      cursor,
    });
    requests.push(...page.requests);
    cursor = page.nextCursor;
  } while (cursor);
  return {
    ...detail,
    transcript: transcript.reverse(),
    transcriptTotal: transcript.length,
    requests: requests.reverse(),
    requestsTotal: requests.length,
  };
}

/** The id of the session that ended last, if any. */
async function lastEndedSession(c: AdminClient): Promise<string | undefined> {
  const { sessions } = await c.call('sessions.list', { status: 'ended', limit: 1 });
  return sessions[0]?.sessionId;
}
