import type { Command } from 'commander';
import { fullDiffText } from '../../../shared/request-picture/picture-text';
import { Option } from 'commander';
import { decisionLine, requestDetails, requestsTable } from '../format';
import { inferredFor } from '../inferred';
import type { AdminParams } from '../../../shared/protocol/method-map';
import type { QueueClient } from './hub-queue-client';
import { withQueue } from './hub-target';
import { parseInteger, positiveNumber } from '../options';
import { Exit, printJson, UsageError } from '../run-admin';
import { eachItem, write, writeJsonArray, writeJsonLines, type PageOf } from '../pages';
import type { RequestRecord } from '../../../shared/domain';
import type { RuleDraft } from '../../../shared/domain';
import { describeRule } from '../../../shared/rule-words';
import {
  addDraftOptions,
  draftFromOptions,
  widens,
  type DraftOptions,
} from '../rule-draft-options';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** How many requests `gatehouse list` shows without --limit or --all. */
const LIST_PAGE = 50;
/** How many requests each call asks for when listing more than a page. */
const FETCH_PAGE = 500;

interface ListOptions {
  all?: boolean;
  gone?: boolean;
  connected?: boolean;
  history?: boolean;
  agent?: string;
  limit?: number;
  json?: boolean;
  jsonl?: boolean;
}

/**
 * `gatehouse list`: the first page of the queue (what needs you first) or of the history (newest first) and how many more; with
 * --all, --json or --jsonl every page in turn, never more than one in memory.
 */
async function listRequests(c: QueueClient, o: ListOptions): Promise<void> {
  const agent = o.agent ? { agent: o.agent } : {};
  const fetch = async (
    cursor: string | undefined,
    limit: number,
  ): Promise<PageOf<RequestRecord>> => {
    const page = o.history
      ? await c.call('requests.query', { ...agent, limit, cursor })
      : await c.call('pending.list', {
          ...agent,
          ...(o.gone || o.connected ? { agentConnected: !o.gone } : {}),
          // What needs the person first, as on every surface (shared/queue-order.ts).
          order: 'attention',
          limit,
          cursor,
        });
    return { items: page.requests, total: page.total, nextCursor: page.nextCursor };
  };
  // Machine output lists everything unless a limit is given (as --json always did).
  const everything = o.all || ((o.json || o.jsonl) && o.limit === undefined);
  const max = everything ? o.limit : (o.limit ?? LIST_PAGE);
  const pageSize = Math.min(FETCH_PAGE, max ?? FETCH_PAGE);
  if (o.json) return writeJsonArray(process.stdout, eachItem(fetch, pageSize, max));
  if (o.jsonl) return writeJsonLines(process.stdout, eachItem(fetch, pageSize, max));
  let total: number | undefined;
  let shown = 0;
  let first = true;
  // A table per page (the first with its header): columns fit each page, memory one page.
  for (let cursor: string | undefined, more = true; more;) {
    const limit = max === undefined ? pageSize : Math.min(pageSize, max - shown);
    if (limit <= 0) break;
    const page = await fetch(cursor, limit);
    total ??= page.total;
    if (page.items.length || first) {
      const text = requestsTable(page.items, c.machineOf?.bind(c));
      await write(process.stdout, `${first ? text : text.split('\n').slice(1).join('\n')}\n`);
    }
    first = false;
    shown += page.items.length;
    cursor = page.nextCursor;
    more = cursor !== undefined;
  }
  const rest = (total ?? shown) - shown;
  if (rest > 0)
    console.log(
      `… and ${rest.toLocaleString('en-US')} more: --all, --limit N${o.history ? '' : ', or gatehouse review'}`,
    );
}

/** list, show, approve, deny: the review queue from the command line. */
export function registerRequestCommands(program: Command): void {
  program
    .command('list')
    .description(
      'List the requests waiting for you (the review queue), what needs you first (blocked agents, urgency, then age): one page, then how many more',
    )
    .option('--all', 'every waiting request, page by page')
    .option('--history', 'recent requests of every status instead')
    .option('--agent <name>', 'only requests of this agent')
    .option('--gone', 'only requests whose agent has no connection open (marked "gone")')
    .option('--connected', 'only requests whose agent is connected now')
    .option('--limit <n>', `how many (default ${LIST_PAGE})`, parseInteger)
    .option('--json', 'a JSON array, one request per line, streamed page by page')
    .option('--jsonl', 'JSON Lines: one request per line, streamed page by page')
    .action((o: ListOptions) => withQueue((c) => listRequests(c, o)));

  program
    .command('show')
    .description('Show one request in full')
    .argument('<id>', 'request id')
    .option('--json', 'print JSON')
    .option('--diff', "also print the full diff of what the request's push sends")
    .action((id: string, o: { json?: boolean; diff?: boolean }) =>
      withQueue(async (c) => {
        const { request } = await c.call('request.get', { requestId: id });
        const machine = c.machineOf?.(id);
        // The full diff and the inferred urgency are the local daemon's (a hub has neither).
        const full =
          o.diff && !machine ? await c.call('request.diff', { requestId: id }) : undefined;
        if (o.json)
          printJson({
            ...request,
            ...(machine ? { machine } : {}),
            ...(full ? { fullDiff: full } : {}),
          });
        else {
          const inferred = machine ? undefined : await inferredFor(c, request);
          console.log(requestDetails(request, { inferred, machine }));
          if (full) console.log(fullDiffText(full));
        }
      }),
    );

  const approve = program
    .command('approve')
    .description(
      'Approve a request (a timed-out one becomes a one-time grant for that action). ' +
        '--scope session/always covers the narrowest rule: the exact command, target, paths ' +
        'and project; the rule is printed before it is saved. Widen it with --pattern and --any-*.',
    )
    .argument('<id...>', 'request id(s)')
    .addOption(
      new Option('--scope <scope>', 'once, for this session, or always (adds a rule)')
        .choices(['once', 'session', 'always'])
        .default('once'),
    );
  addDraftOptions(approve)
    .option('--message <text>', 'a note for the agent, which its model reads')
    .option('--condition <text>', 'approve on a condition (repeatable)', collect)
    .option(
      '--minutes <n>',
      'also cover the same action for N minutes',
      positiveNumber('a number of minutes', '30'),
    )
    .option('--uses <k>', 'also cover the same action K more times', parseInteger)
    .option(
      '--max-spend <usd>',
      'also cover the same action up to this spend',
      positiveNumber('an amount of US dollars', '2.50'),
    )
    .option(
      '--edit-command <command>',
      'approve this command instead of the one asked (a shell tool call of an agent that runs edited calls: Claude Code, Copilot CLI, OpenCode, Codex, Gemini CLI)',
    )
    .option(
      '--edit-input <json>',
      "approve this tool input (a JSON object) instead of the agent's (an agent that runs edited calls)",
    )
    .option('--confirm-riskier', 'approve an edited call even if it is riskier than the one asked')
    .option('--json', 'print the decided request(s) as JSON')
    .action(
      (
        ids: string[],
        o: {
          editCommand?: string;
          editInput?: string;
          confirmRiskier?: boolean;
          scope: 'once' | 'session' | 'always';
          message?: string;
          condition?: string[];
          minutes?: number;
          uses?: number;
          maxSpend?: number;
          json?: boolean;
        } & DraftOptions,
      ) =>
        withQueue(async (c) => {
          const envelope = { minutes: o.minutes, uses: o.uses, maxSpendUsd: o.maxSpend };
          // A bound not given is an undefined key, which JSON leaves out.
          const hasEnvelope = Object.values(envelope).some((v) => v !== undefined);
          const edit = editOf(o);
          if (edit === null) return invalid('--edit-input must be a JSON object');
          if (edit && ids.length > 1) return invalid('an edit approves one request: give one id');
          const common = {
            decision: 'approve' as const,
            scope: o.scope,
            ...(edit ? { edit } : {}),
            ...(o.message ? { message: o.message } : {}),
            ...(o.condition?.length ? { conditions: o.condition } : {}),
            ...(hasEnvelope ? { envelope } : {}),
          };
          // The rule is shown (and shaped) for session and always; an envelope is shaped
          // only when asked to, and its decision line says what it covers.
          const shaped = o.scope !== 'once' || (hasEnvelope && widens(o));
          if (!shaped || (ids.length > 1 && !widens(o))) return decideAll(c, ids, common, o.json);
          if (ids.length > 1)
            return invalid('--pattern and --any-* shape the rule of one request: give one id');
          // Against a hub the rule is one the machine offered (its narrowest unless shaped),
          // named in the decision by its id (hub-queue-client.ts); shown first as locally.
          const rule = await previewRule(c, ids[0]!, o).catch((error: unknown) => {
            if (c.machineOf && !widens(o) && error instanceof UsageError) return null;
            throw error;
          });
          if (rule === undefined) return;
          if (rule === null) {
            // A machine that offered no rules (an older Gatehouse) saves its own narrowest.
            const machine = c.machineOf?.(ids[0]!) ?? 'the machine';
            if (!o.json) console.log(`${ruleVerb(o.scope)}: ${machine}'s own narrowest rule`);
            return decideAll(c, ids, common, o.json);
          }
          const description = describeRule(rule);
          if (!o.json) console.log(`${ruleVerb(o.scope)}: ${description}`);
          await decideAll(c, ids, { ...common, rule }, o.json, {
            scope: o.scope,
            description,
            draft: rule,
          });
        }),
    );

  program
    .command('deny')
    .description('Deny a request, with a reason the agent sees')
    .argument('<id...>', 'request id(s)')
    .option('--reason <text>', 'why (the agent gets this)')
    .option('--json', 'print the decided request(s) as JSON')
    .action((ids: string[], o: { reason?: string; json?: boolean }) =>
      withQueue(async (c) => {
        await decideAll(
          c,
          ids,
          { decision: 'deny', ...(o.reason ? { reason: o.reason } : {}) },
          o.json,
        );
      }),
    );
}

/**
 * The edited call of `approve --edit-command` / `--edit-input`; undefined without one, null
 * for an `--edit-input` that is not a JSON object.
 */
function editOf(o: {
  editCommand?: string;
  editInput?: string;
  confirmRiskier?: boolean;
}): AdminParams<'decide'>['edit'] | null {
  let input: Record<string, unknown> | undefined;
  if (o.editCommand !== undefined) input = { command: o.editCommand };
  if (o.editInput !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(o.editInput);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    input = { ...(parsed as Record<string, unknown>), ...input };
  }
  if (input === undefined) return undefined;
  return { input, ...(o.confirmRiskier ? { confirmRiskier: true } : {}) };
}

/** The rule an approval of one request covers, as printed before deciding. */
interface ApprovedRule {
  scope: 'once' | 'session' | 'always';
  description: string;
  draft: RuleDraft;
}

async function decideAll(
  c: QueueClient,
  ids: string[],
  common: Omit<AdminParams<'decide'>, 'requestId'>,
  json?: boolean,
  approvedRule?: ApprovedRule,
): Promise<void> {
  if (ids.length === 1) {
    const { request, rule, grants } = await c.call('decide', {
      ...common,
      requestId: ids[0]!,
      via: 'cli',
    });
    // The request's own `rule` is the one that asked: the approved one has its own key.
    if (json) printJson(approvedRule ? { ...request, approvedRule } : request);
    else {
      console.log(decisionLine(request, common.envelope));
      if (rule) console.log(`created rule ${rule.ruleId}: ${rule.description}`);
      // The decision line already says what an envelope covers; a session grant it does not.
      for (const g of (grants ?? []).filter((g) => g.kind === 'session'))
        console.log(`issued ${g.kind.replace('_', ' ')} grant ${g.grantId}: ${g.description}`);
    }
    return;
  }
  const { decided, failed, rules } = await c.call('decideMany', {
    ...common,
    requestIds: ids,
    via: 'cli',
  });
  if (json) printJson({ decided, failed });
  else {
    for (const r of decided) console.log(decisionLine(r, common.envelope));
    for (const r of rules ?? [])
      console.log(`created rule ${r.ruleId} for ${r.requestId}: ${r.description}`);
    for (const f of failed) console.error(`${f.requestId}: ${f.error}`);
  }
  if (failed.length) process.exitCode = 1;
}

const ruleVerb = (scope: 'once' | 'session' | 'always'): string =>
  scope === 'always'
    ? 'will save the rule'
    : scope === 'session'
      ? 'will cover for this session'
      : 'will cover';

function invalid(message: string): void {
  console.error(`gatehouse: ${message}`);
  process.exitCode = Exit.invalid;
}

/** The draft to remember for one request: the narrowest, shaped by the options. */
async function previewRule(
  c: QueueClient,
  requestId: string,
  o: DraftOptions,
): Promise<RuleDraft | undefined> {
  const [{ draft }, { request }] = await Promise.all([
    c.call('rules.preview', { requestId }),
    c.call('request.get', { requestId }),
  ]);
  try {
    return draftFromOptions(draft, request, o);
  } catch (error) {
    invalid(error instanceof Error ? error.message : String(error));
    return undefined;
  }
}
