import type Database from 'better-sqlite3';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { timeOrderedIds } from '../../../../main/engine/kernel/ids';
import { openDatabase } from '../../../../main/store/database';
import { TAIL_ROWS } from '../../../../main/store/request-key-index';
import { RequestTailIndexer } from '../../../../main/store/request-tail-indexer';
import { RequestsRepository } from '../../../../main/store/requests-repository';
import { FakeClock } from '../../../support/fake-clock';

/**
 * The requests' key tables are written when the daemon is idle (request-tail-indexer.ts): a
 * chunk per turn of the event loop, never while the loop is busy serving calls, never inside
 * an agent's open batch, and the tail it leaves is less than a chunk.
 */

let dir: string;
let db: Database.Database;
let repo: RequestsRepository;
let clock: FakeClock;
let busy: boolean;
let indexer: RequestTailIndexer;
const logged: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-tail-indexer-'));
  db = openDatabase({ file: join(dir, 'gatehouse.db') });
  repo = new RequestsRepository(db);
  clock = new FakeClock();
  busy = false;
  logged.length = 0;
  indexer = new RequestTailIndexer({
    tail: repo,
    clock,
    writerIdle: () => !db.inTransaction,
    loopBusy: () => busy,
    log: (m) => logged.push(m),
  });
  indexer.start();
});
afterEach(() => {
  indexer.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = timeOrderedIds(() => clock.now(), randomInt);

function file(n: number): void {
  db.transaction(() => {
    for (let i = 0; i < n; i++)
      repo.insert({
        requestId: ids('req'),
        sessionId: `ses-${i % 5}`,
        agent: `agent-${i % 2}`,
        action: 'read_file',
        description: `request ${i}`,
        urgency: 'normal',
        fingerprint: `fp-${i}`,
        status: 'approved',
        tier: 'auto',
        rule: 'default:read_file',
        ruleReason: 'reads',
        createdAt: clock.now(),
      });
  })();
}

const tailSize = () =>
  db
    .prepare(
      'SELECT COUNT(*) FROM requests WHERE request_key > (SELECT through FROM request_keys_mark)',
    )
    .pluck()
    .get() as number;

/** A tick of the indexer, then enough turns of the event loop for its chunks. */
async function tickAndTurns(): Promise<void> {
  clock.advance(500);
  for (let i = 0; i < 10; i++) await turn();
}

describe('the idle indexer of the requests tail', () => {
  it('writes the tail a chunk per turn once the loop is idle, down to less than a chunk', async () => {
    file(TAIL_ROWS * 3 + 5);
    expect(tailSize()).toBe(TAIL_ROWS * 3 + 5);
    await tickAndTurns();
    expect(tailSize()).toBe(5);
    expect(db.prepare('SELECT COUNT(*) FROM session_request_keys').pluck().get()).toBe(
      TAIL_ROWS * 3,
    );
    expect(logged).toEqual([]);
  });

  it('leaves a tail shorter than a chunk alone: one bulk write for many entries', async () => {
    file(TAIL_ROWS - 1);
    await tickAndTurns();
    expect(tailSize()).toBe(TAIL_ROWS - 1);
  });

  it('waits while the loop is busy serving calls', async () => {
    file(TAIL_ROWS * 2);
    busy = true;
    await tickAndTurns();
    await tickAndTurns();
    expect(tailSize()).toBe(TAIL_ROWS * 2);
    busy = false;
    await tickAndTurns();
    expect(tailSize()).toBe(0);
  });

  it('never writes inside an open batch, and stops between chunks when one opens', async () => {
    file(TAIL_ROWS * 3);
    db.exec('BEGIN IMMEDIATE');
    await tickAndTurns();
    expect(db.inTransaction).toBe(true);
    db.exec('COMMIT');
    expect(tailSize()).toBe(TAIL_ROWS * 3);
    // A batch opens after the first chunk (an agent's call): the rest waits for a later tick.
    clock.advance(500);
    expect(tailSize()).toBe(TAIL_ROWS * 2);
    db.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < 10; i++) await turn();
    db.exec('COMMIT');
    expect(tailSize()).toBe(TAIL_ROWS * 2);
    await tickAndTurns();
    expect(tailSize()).toBe(0);
  });

  it('logs a chunk that fails and tries again at a later tick', async () => {
    file(TAIL_ROWS);
    db.exec(`CREATE TRIGGER refuse_chunks BEFORE UPDATE ON request_keys_mark
      BEGIN SELECT RAISE(ABORT, 'chunk refused'); END`);
    await tickAndTurns();
    expect(tailSize()).toBe(TAIL_ROWS);
    expect(logged.join('\n')).toContain('chunk refused');
    db.exec('DROP TRIGGER refuse_chunks');
    await tickAndTurns();
    expect(tailSize()).toBe(0);
  });
});
