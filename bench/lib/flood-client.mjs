// A flooding agent: N connections that say hello, then pipeline `classify` calls as
// fast as the socket takes them and never read a reply. Prints "flooding" once all are in,
// then the lines written so far, checked every 50 ms and printed when the count changed (it
// stops changing once the daemon no longer reads). Usage: node flood-client.mjs SOCKET N
import { connect } from 'node:net';

const [socketPath, nText] = process.argv.slice(2);
const n = Number(nText);
const line = '{"jsonrpc":"2.0","id":7,"method":"classify","params":{"action":"read_file"}}\n';
const chunk = line.repeat(200);
let written = 0;

const sockets = await Promise.all(
  Array.from(
    { length: n },
    () =>
      new Promise((resolve, reject) => {
        const s = connect(socketPath);
        s.once('connect', () => resolve(s));
        s.once('error', reject);
      }),
  ),
);
for (const s of sockets) {
  s.on('error', () => undefined);
  s.pause(); // replies are never read
  s.write('{"jsonrpc":"2.0","id":1,"method":"hello","params":{"agent":"flood"}}\n');
  const pump = () => {
    while (!s.destroyed) {
      written += 200;
      if (!s.write(chunk)) return void s.once('drain', pump);
    }
  };
  pump();
}
console.log('flooding');
let printed = -1;
setInterval(() => {
  if (written !== printed) console.log(`written ${(printed = written)}`);
}, 50);
