// Smoke test of the real desktop app: `npm run test:electron` (builds first). It needs the
// Electron runtime (`npx electron --version` works) and a display (on Linux run it under
// `xvfb-run -a`); it is not part of `npm test`, which runs everywhere.
//
// It starts the app with its own GATEHOUSE_HOME and socket, opens the window, checks the
// window's security (no Node, no new windows, no navigation, the CSP), drives the admin API
// through `window.gatehouse`, and has an agent on the socket released by a decision made in
// the page. Every wait is for an event the app emits, never a fixed sleep.
/* global window, document -- page.evaluate callbacks run in the window */
import { _electron as electron } from 'playwright-core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const home = mkdtempSync(join(tmpdir(), 'gatehouse-electron-'));
const socketPath = join(home, 'agent.sock');
// Start with the window open instead of hidden to the tray.
writeFileSync(join(home, 'shell-settings.json'), JSON.stringify({ startHidden: false }));

// The app keeps Chromium's profile (and its single-instance lock) under GATEHOUSE_HOME too,
// so this run shares nothing with a Gatehouse the user may have open.
const env = { ...process.env, GATEHOUSE_HOME: home, GATEHOUSE_SOCKET: socketPath };
const launch = () =>
  electron.launch({
    args: [
      join(root, 'dist/main/electron-main.js'),
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ],
    cwd: root,
    env,
    timeout: 30_000,
  });

/** A minimal agent: NDJSON JSON-RPC over the socket, answers matched by id. */
function agentClient(path) {
  const socket = connect(path);
  const waiting = new Map();
  let buffer = '';
  let nextId = 1;
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      const pending = waiting.get(message.id);
      if (!pending) continue;
      waiting.delete(message.id);
      if (message.error) pending.reject(new Error(message.error.message));
      else pending.resolve(message.result);
    }
  });
  return {
    ready: new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject)),
    call(method, params) {
      const id = nextId++;
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
    close: () => socket.destroy(),
  };
}

/** Resolves when the app's main process writes a line matching `pattern` to stderr. */
function stderrLine(pattern) {
  return new Promise((resolve) => {
    const stderr = app.process().stderr;
    const onData = (chunk) => {
      const line = String(chunk)
        .split('\n')
        .find((l) => pattern.test(l));
      if (line === undefined) return;
      stderr.off('data', onData);
      resolve(line);
    };
    stderr.on('data', onData);
  });
}

const steps = [];
const step = async (name, fn) => {
  const started = Date.now();
  await fn();
  steps.push(name);
  console.log(`ok - ${name} (${Date.now() - started} ms)`);
};

let app;
let agent;
try {
  await step('the app starts and opens its window', async () => {
    app = await launch();
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    assert.match(page.url(), /^file:\/\/.*\/dist\/renderer\/index\.html/);
  });
  const page = await app.firstWindow();

  await step('the window is isolated: no Node, no require, only window.gatehouse', async () => {
    const seen = await page.evaluate(() => ({
      require: typeof globalThis.require,
      process: typeof globalThis.process,
      api: typeof window.gatehouse?.decide,
    }));
    assert.deepEqual(seen, { require: 'undefined', process: 'undefined', api: 'function' });
  });

  await step('the page carries the strict CSP', async () => {
    const csp = await page.evaluate(
      () => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? '',
    );
    assert.match(csp, /^default-src 'none'/);
  });

  await step('new windows are denied', async () => {
    assert.equal(await page.evaluate(() => window.open('https://example.com') === null), true);
    assert.equal(app.windows().length, 1);
  });

  await step('navigation away is denied', async () => {
    const before = page.url();
    const blocked = stderrLine(/blocked navigation to https:\/\/example\.com\//);
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await blocked;
    assert.equal(page.url(), before);
    assert.equal(await page.evaluate(() => typeof window.gatehouse.getStatus), 'function');
  });

  await step('the admin API answers through IPC', async () => {
    const status = await page.evaluate(() => window.gatehouse.getStatus());
    assert.equal(status.pending, 0);
    assert.equal(status.socketPath, socketPath);
  });

  await step(
    'an agent request shows up as an event and a decision releases the agent',
    async () => {
      await page.evaluate(() => {
        window.__events = [];
        window.gatehouse.onEvent((event) => window.__events.push(event));
      });
      agent = agentClient(socketPath);
      await agent.ready;
      await agent.call('hello', { agent: 'smoke' });
      const answer = agent.call('request', {
        action: 'git_push',
        description: 'Push the smoke branch',
        urgency: 'high',
      });
      const handle = await page.waitForFunction(
        () => window.__events.find((e) => e.type === 'request.created')?.request.requestId,
      );
      const requestId = await handle.jsonValue();
      await page.evaluate(
        (id) => window.gatehouse.decide({ requestId: id, decision: 'approve' }),
        requestId,
      );
      const result = await answer;
      assert.equal(result.status, 'approved');
    },
  );

  await step('bad params come back as an error, not a crash', async () => {
    const message = await page.evaluate(() =>
      window.gatehouse.decide({ requestId: '', decision: 'maybe' }).then(
        () => 'resolved',
        (error) => String(error.message),
      ),
    );
    assert.match(message, /invalid params/);
  });

  await step('a second instance exits and leaves the first running', async () => {
    const second = await launch().catch((error) => error);
    // Either Playwright sees the process exit at once, or it gets a handle to a closing app.
    if (!(second instanceof Error)) {
      await second.waitForEvent('close', { timeout: 15_000 });
    }
    assert.equal((await page.evaluate(() => window.gatehouse.getStatus())).pending, 0);
  });

  console.log(`\n${steps.length} smoke steps passed`);
} catch (error) {
  console.error(`not ok - after ${steps.length} steps:`, error);
  process.exitCode = 1;
} finally {
  agent?.close();
  await app?.close().catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
}
