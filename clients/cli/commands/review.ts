import type { Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import { requestDetails } from '../format';
import { withAdmin } from '../run-admin';

/** How many waiting requests `review` reads at a time. */
const REVIEW_PAGE = 100;

/** `gatehouse review`: one pending request at a time, decided at the keyboard. */
export function registerReviewCommand(program: Command): void {
  program
    .command('review')
    .description('Review pending requests one at a time: approve, deny, skip or view details')
    .action(() =>
      withAdmin(async (c) => {
        const rl = createInterface({
          input: process.stdin,
          output: process.stdout,
          terminal: false,
        });
        const lines = rl[Symbol.asyncIterator]();
        const ask = async (q: string): Promise<string | undefined> => {
          process.stdout.write(q);
          const next = await lines.next();
          return next.done ? undefined : next.value.trim();
        };
        try {
          // The queue is read a page at a time (oldest first), so a long one starts at once;
          // the cursor is a position in the queue, so deciding does not shift later pages.
          let page = await c.call('pending.list', { limit: REVIEW_PAGE });
          const total = page.total ?? page.requests.length;
          if (!page.requests.length) return void console.log('Nothing to review.');
          let decided = 0;
          let seen = 0;
          const queue = async function* () {
            for (;;) {
              yield* page.requests;
              if (!page.nextCursor) return;
              page = await c.call('pending.list', { limit: REVIEW_PAGE, cursor: page.nextCursor });
            }
          };
          for await (const r of queue()) {
            seen++;
            console.log(`\n[${seen}/${total}] ${r.agent} wants to: ${r.description}`);
            console.log(
              `  action ${r.action}, ${r.urgency} urgency${r.rationale ? `, because: ${r.rationale}` : ''}`,
            );
            for (;;) {
              const answer = (
                await ask('[a]pprove  [d]eny  [s]kip  [v]iew details  [q]uit > ')
              )?.toLowerCase();
              if (answer === undefined || answer === 'q')
                return void console.log(`Decided ${decided}.`);
              if (answer === 'v') {
                console.log(requestDetails(r));
                continue;
              }
              if (answer === 's' || answer === '') break;
              if (answer === 'a') {
                await c.call('decide', {
                  requestId: r.requestId,
                  decision: 'approve',
                  scope: 'once',
                  via: 'cli',
                });
                console.log('  approved');
                decided++;
                break;
              }
              if (answer === 'd') {
                const reason = await ask('  reason (optional) > ');
                await c.call('decide', {
                  requestId: r.requestId,
                  decision: 'deny',
                  via: 'cli',
                  ...(reason ? { reason } : {}),
                });
                console.log('  denied');
                decided++;
                break;
              }
              console.log('  please answer a, d, s, v or q');
            }
          }
          console.log(`Decided ${decided} of ${seen}.`);
        } finally {
          rl.close();
        }
      }),
    );
}
