import type { Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import { isWaitingForYou, type RequestRecord } from '../../../shared/domain';
import { ErrorCode } from '../../../shared/protocol/errors';
import type { AdminParams } from '../../../shared/protocol/method-map';
import { RpcError } from '../../sdk/rpc-client';
import type { QueueClient } from './hub-queue-client';
import { withQueue } from './hub-target';
import { requestDetails } from '../format';
import { inferredFor } from '../inferred';
import { page } from '../pager';
import { fullDiffText } from '../../../shared/request-picture/picture-text';

/** How many waiting requests `review` reads at a time. */
const REVIEW_PAGE = 100;

const PROMPT =
  '[a]pprove once  [t]his session  a[l]ways  [d]eny  [s]kip  [v]iew details and diff  [q]uit > ';

type Ask = (question: string) => Promise<string | undefined>;

/** `gatehouse review`: one pending request at a time, decided at the keyboard. */
export function registerReviewCommand(program: Command): void {
  program
    .command('review')
    .description(
      'Review pending requests one at a time: approve once, for the session or always (the rule is shown first), deny, skip, or view details and the diff (in $PAGER on a terminal)',
    )
    .action(() =>
      withQueue(async (c) => {
        const rl = createInterface({
          input: process.stdin,
          output: process.stdout,
          terminal: false,
        });
        const lines = rl[Symbol.asyncIterator]();
        const ask: Ask = async (q) => {
          process.stdout.write(q);
          const next = await lines.next();
          return next.done ? undefined : next.value.trim();
        };
        try {
          await review(c, ask);
        } finally {
          rl.close();
        }
      }),
    );
}

async function review(c: QueueClient, ask: Ask): Promise<void> {
  // The queue is read a page at a time (what needs you first), so a long one starts at once;
  // the cursor is a position in the queue, so deciding does not shift later pages.
  let page = await c.call('pending.list', { limit: REVIEW_PAGE });
  let total = page.total ?? page.requests.length;
  if (!page.requests.length) return void console.log('Nothing to review.');
  let decided = 0;
  let seen = 0;
  // The order is by what needs you first, so a request can move while you review: one that
  // moved up behind the cursor (its agent started waiting, a high one arrived) comes in the
  // next walk from the top; one that moved down is not shown twice. The walks end when one
  // finds nothing not shown yet (a skipped request is not shown again).
  const shown = new Set<string>();
  const queue = async function* () {
    for (;;) {
      let fresh = false;
      for (;;) {
        for (const r of page.requests) {
          if (shown.has(r.requestId)) continue;
          shown.add(r.requestId);
          fresh = true;
          yield r;
        }
        if (!page.nextCursor) break;
        page = await c.call('pending.list', { limit: REVIEW_PAGE, cursor: page.nextCursor });
      }
      if (!fresh) return;
      page = await c.call('pending.list', { limit: REVIEW_PAGE });
    }
  };
  for await (const listed of queue()) {
    seen++;
    total = Math.max(total, seen);
    // The page was read a while ago: the dashboard, the phone or another terminal may have
    // decided this one since.
    const r = (await c.call('request.get', { requestId: listed.requestId })).request;
    if (!isWaitingForYou(r.status)) {
      console.log(`\n[${seen}/${total}] ${decidedElsewhere(r)}`);
      continue;
    }
    const machine = c.machineOf?.(r.requestId);
    console.log(
      `\n[${seen}/${total}] ${r.agent}${machine ? ` on ${machine}` : ''} wants to: ${r.description}`,
    );
    console.log(
      `  action ${r.action}, ${r.urgency} urgency${r.rationale ? `, because: ${r.rationale}` : ''}`,
    );
    const outcome = await decideOne(c, r, ask);
    if (outcome === 'quit') return void console.log(`Decided ${decided}.`);
    if (outcome === 'decided') decided++;
  }
  console.log(`Decided ${decided} of ${seen}.`);
}

/**
 * The request in full with its picture as it is now (computed after filing, so it may have
 * arrived since the request was listed), and the full diff of its push.
 */
async function detailsWithDiff(c: QueueClient, requestId: string): Promise<string> {
  const { request } = await c.call('request.get', { requestId });
  const machine = c.machineOf?.(requestId);
  // A hub shows the request as its machine published it: no inference, no full diff.
  if (machine) return requestDetails(request, { machine });
  const details = requestDetails(request, { inferred: await inferredFor(c, request) });
  if (!request.picture?.push) return details;
  return `${details}\n${fullDiffText(await c.call('request.diff', { requestId }))}`;
}

/** Asks about one request until it is decided, skipped, or the person quits. */
async function decideOne(
  c: QueueClient,
  r: RequestRecord,
  ask: Ask,
): Promise<'decided' | 'skipped' | 'quit'> {
  for (;;) {
    const answer = (await ask(PROMPT))?.toLowerCase();
    if (answer === undefined || answer === 'q') return 'quit';
    if (answer === 'v') {
      page(await detailsWithDiff(c, r.requestId));
      continue;
    }
    if (answer === 's' || answer === '') return 'skipped';
    let params: Omit<AdminParams<'decide'>, 'requestId' | 'via'> | undefined;
    let said = '';
    if (answer === 'a') {
      params = { decision: 'approve', scope: 'once' };
      said = 'approved once';
    } else if (answer === 't' || answer === 'l') {
      const scope = answer === 't' ? 'session' : 'always';
      if (c.machineOf) {
        // Against a hub the machine shapes the rule with its own preview, the narrowest.
        params = { decision: 'approve', scope };
        said =
          scope === 'always'
            ? 'approved always: the machine saves its narrowest rule'
            : 'approved for this session: the machine covers what its narrowest rule does';
      } else {
        // The rule is shown before it is saved, as `approve --scope` does.
        const { draft, describe } = await c.call('rules.preview', { requestId: r.requestId });
        const covers = describe[0] ?? '';
        console.log(
          scope === 'always'
            ? `  always would save the rule: ${covers}`
            : `  for this session it would cover: ${covers}`,
        );
        const sure = (await ask('  go ahead? [y/N] > '))?.toLowerCase();
        if (sure !== 'y' && sure !== 'yes') continue;
        params = { decision: 'approve', scope, rule: draft };
        said =
          scope === 'always' ? `approved; saved the rule: ${covers}` : 'approved for this session';
      }
    } else if (answer === 'd') {
      const reason = await ask('  reason (optional) > ');
      params = { decision: 'deny', ...(reason ? { reason } : {}) };
      said = 'denied';
    } else {
      console.log('  please answer a, t, l, d, s, v or q');
      continue;
    }
    const result = await decideUnlessDecided(c, r.requestId, params);
    if (result.elsewhere) {
      console.log(`  ${decidedElsewhere(result.elsewhere)}`);
      return 'skipped';
    }
    console.log(`  ${said}`);
    return 'decided';
  }
}

/**
 * Decides, unless someone decided the request first (its status is then no longer waiting):
 * that is news to report, not an error that ends the review.
 */
async function decideUnlessDecided(
  c: QueueClient,
  requestId: string,
  params: Omit<AdminParams<'decide'>, 'requestId' | 'via'>,
): Promise<{ elsewhere?: RequestRecord }> {
  try {
    await c.call('decide', { ...params, requestId, via: 'cli' });
    return {};
  } catch (error) {
    if (!(error instanceof RpcError) || error.code !== ErrorCode.InvalidParams) throw error;
    const { request } = await c.call('request.get', { requestId });
    if (isWaitingForYou(request.status)) throw error;
    return { elsewhere: request };
  }
}

/** "req-… (push A) was approved elsewhere (dashboard); moving to the next." */
function decidedElsewhere(r: RequestRecord): string {
  const how = r.decidedVia ?? r.decidedBy;
  return `${r.requestId} (${r.description}) was ${r.status.replace('_', ' ')} elsewhere${how ? ` (${how})` : ''}; moving to the next.`;
}
