// Run by the build (scripts/relay-image.mjs) in a fresh Node process, with the flags a hook
// process has, in one of two modes:
//
//   --produce WRAPPED SAMPLES OUT   compiles the relay's wrapped source, runs it once on each
//                                   agent's sample payload (Claude Code's on stdin, through the
//                                   relay's own stdin and stdout; the others through its io
//                                   parameter) against a stand-in Gatehouse on a socket of its
//                                   own, and writes the V8 code cache of everything it compiled
//                                   to OUT. The stand-in answers as the daemon answers an
//                                   auto-allowed call: the path a hook takes most.
//   --check HOOK_FILE               loads the built hook file without running a hook and prints
//                                   what it did with its code cache: used, rejected or none.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

// What the relay requires with: Node's own modules (the warm-up never goes offline).
const require = createRequire(import.meta.url);

const [mode, ...args] = process.argv.slice(2);

/** What the stand-in answers, by method: the shapes of docs/protocol.md. */
const ANSWERS = {
  hello: {
    sessionId: 'ses-warm-up',
    protocol: 1,
    server: { name: 'gatehouse', version: '0.0.0' },
    mode: 'normal',
  },
  gate: {
    outcome: 'allow',
    reason:
      'read_file is auto-allowed (default:read_file: reading project files has no side effects)',
    decidedBy: 'policy',
    actions: [{ action: 'read_file', tier: 'auto', rule: 'default:read_file', risk: 'low' }],
  },
};

function standIn(socketPath) {
  const server = createServer((socket) => {
    let pending = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      pending += chunk;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const message = JSON.parse(pending.slice(0, end));
        pending = pending.slice(end + 1);
        if (message.id === undefined) continue;
        const result = ANSWERS[message.method];
        const answer = result
          ? { jsonrpc: '2.0', id: message.id, result }
          : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not served here' } };
        socket.write(`${JSON.stringify(answer)}\n`);
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}

async function produce(wrappedFile, samplesFile, outFile) {
  const wrapped = readFileSync(wrappedFile, 'utf8');
  const samples = JSON.parse(readFileSync(samplesFile, 'utf8'));
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-warm-up-'));
  const socketPath = join(work, 'agent.sock');
  const server = await standIn(socketPath);
  const env = { GATEHOUSE_SOCKET: socketPath, GATEHOUSE_HOME: work, PATH: process.env.PATH };
  Object.assign(process.env, env);
  for (const name of Object.keys(process.env))
    if (name.startsWith('GATEHOUSE_HOOK_')) delete process.env[name];
  const script = new Script(wrapped, {
    filename: join(dirname(wrappedFile), 'gatehouse-hook.cjs'),
  });
  const relayModule = { exports: {} };
  // Not `hook <agent>`: the relay loads without running a hook of its own.
  process.argv = [process.argv[0], 'gatehouse-hook.cjs', 'warm-up'];
  script.runInThisContext()(
    relayModule.exports,
    require,
    relayModule,
    wrappedFile,
    dirname(wrappedFile),
  );
  const relay = relayModule.exports;
  // The relay ends its process once it has answered; here the next agent follows.
  const exit = process.exit;
  process.exit = () => undefined;
  const answers = [];
  try {
    await relay.runHookMain('claude-code');
    for (const [agent, payload] of Object.entries(samples)) {
      const io = {
        isTerminal: async () => false,
        read: async () => JSON.stringify(payload),
        write: async (text) => void answers.push(`${agent}: ${text.trim()}`),
      };
      await relay.runHook(await relay.HOOK_ADAPTERS[agent](), process.env, io);
    }
  } finally {
    process.exit = exit;
  }
  // Codex's allow sets no decision (an `allow` without an edited input is a failed hook
  // there), so an allow is an answer without a deny, and every agent must have answered.
  const refused = answers.filter((a) => /deny/i.test(a));
  const silent = Object.keys(samples).filter(
    (agent) => !answers.some((a) => a.startsWith(`${agent}: `)),
  );
  if (silent.length) refused.push(...silent.map((agent) => `${agent}: no answer`));
  if (refused.length)
    throw new Error(`the relay did not allow the samples:\n${refused.join('\n')}`);
  writeFileSync(outFile, script.createCachedData());
  server.close();
  rmSync(work, { recursive: true, force: true });
}

function check(hookFile) {
  process.argv = [process.argv[0], hookFile, 'check'];
  process.stdout.write(`${require(hookFile).relayCodeCache}\n`);
}

if (mode === '--produce')
  produce(...args).then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
else if (mode === '--check') check(args[0]);
else {
  process.stderr.write(
    'usage: relay-cache-producer.mjs --produce WRAPPED SAMPLES OUT | --check HOOK_FILE\n',
  );
  process.exit(2);
}
