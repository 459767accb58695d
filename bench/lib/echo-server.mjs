// A bare NDJSON echo server: the baseline for what the socket alone costs. Run as a child
// process so that it, like the daemon, does not share a thread with the load generator.
// With a second argument it spins that many microseconds per call before answering: a
// server that does nothing but burn a known CPU time per call, to calibrate latencies.
// With a third, a database file, it stores each call as one row and answers only once the
// row is committed, the calls of one event-loop turn in one transaction (group commit), as
// the daemon does: the floor of "one durable write per decision" on this machine, with the
// daemon's settings (1 KiB pages, WAL, synchronous NORMAL, no checkpoint inside a commit).
import { createServer } from 'node:net';
import { unlinkSync } from 'node:fs';
import Database from 'better-sqlite3';

const path = process.argv[2];
const workMs = Number(process.argv[3] ?? 0) / 1000;
const store = process.argv[4] ? openStore(process.argv[4]) : undefined;
try {
  unlinkSync(path);
} catch {
  // no stale socket to remove
}

function openStore(file) {
  const db = new Database(file);
  db.pragma('page_size = 1024');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE calls (call_key INTEGER PRIMARY KEY, at INTEGER NOT NULL, line TEXT)');
  const insert = db.prepare('INSERT INTO calls (at, line) VALUES (?, ?)');
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  /** Answers held until the open transaction commits: [socket, text]. */
  let held = [];
  return {
    /** Stores the call and holds its answer until the turn's commit. */
    write(socket, line, out) {
      if (!held.length) {
        begin.run();
        setImmediate(() => {
          commit.run();
          const answers = held;
          held = [];
          for (const [s, text] of answers) s.write(text);
        });
      }
      insert.run(Date.now(), line);
      held.push([socket, out]);
    },
  };
}

createServer((socket) => {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => {
    buffer += d;
    let nl;
    let out = '';
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      // Answer with the request's id, as a JSON-RPC server would, without any work.
      const id = JSON.parse(line).id;
      if (workMs > 0) for (const end = performance.now() + workMs; performance.now() < end;);
      const answer = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${line}}\n`;
      if (store) store.write(socket, line, answer);
      else out += answer;
    }
    if (out) socket.write(out);
  });
  socket.on('error', () => {});
}).listen(path, () => console.log('echo: ready'));
