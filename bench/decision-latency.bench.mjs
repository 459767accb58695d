// Benchmark: a decision from the phone page → the waiting agent's answer.
//
// Real agent socket, engine and SQLite store (temp GATEHOUSE_HOME), and the loopback dashboard
// serving the decision links (main/remote/link-routes.ts) as the daemon wires it. The agent
// waits in `request`; the clock starts when the page's form is POSTed (decision + one-time
// form token, as the browser sends it) and stops when the agent has its answer. The page's
// GET (which only shows the request) is outside the timing. Baseline in the same run: the
// same decision through the admin service directly (what the CLI, IPC and dashboard API
// call), so the ratio is the link path's own cost (HTTP, token and form checks, the nonce).
// Target: p99 < 10 ms from the decision to the waiting agent's answer, by every path.
//
// The reply-topic path (ntfy, for a Gatehouse the phone cannot reach): a local ntfy server
// (test/support/ntfy-server.ts, ntfy's publish and JSON-stream API) and the daemon's reply
// listener subscribed to it. The clock starts when the button's request is sent (a POST of
// the signed one-decision token to the reply topic, as the ntfy app does it) and stops at the
// agent's answer; a second figure starts when the message reaches Gatehouse (the listener
// hands it to the link decider).
//
// The Telegram path: a local Bot API server (test/support/telegram-server.ts) and the
// daemon's getUpdates long poll on it. The clock starts when the server queues the
// callback_query of an Approve press (as Telegram does when a user taps the button) and stops
// at the agent's answer; a second figure starts when the press reaches Gatehouse (the poller
// hands the button's token to the link decider).
//
// The Slack path: a local Web API + Socket Mode server (test/support/slack-server.ts) and the
// daemon's Socket Mode connection to it. The clock starts when the server sends the
// block_actions envelope of an Approve press down the WebSocket (as Slack does when a user
// clicks the button) and stops at the agent's answer; a second figure starts when the press
// reaches Gatehouse (the button's token handed to the link decider).
//
// The Discord path: a local Discord (test/support/discord-server.ts, REST and Gateway) and the
// daemon's Gateway connection to it. The clock starts when the server dispatches the
// INTERACTION_CREATE of an Approve press (as Discord does when a user clicks the button) and
// stops at the agent's answer; a second figure starts when the press reaches Gatehouse.
//
// Run: node bench/decision-latency.bench.mjs [decisions=300]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from './lib/import-sources.mjs';
import { decideWithManyWaiting } from './lib/many-waiting.mjs';
import { settleTargets, sized } from './lib/quick.mjs';

const count = Number(process.argv[2] ?? sized(300, 20));
const TARGET_P99_MS = 10;

const {
  createCore,
  DashboardServer,
  GatehouseClient,
  startNtfyReplies,
  startNtfyServer,
  startTelegram,
  TelegramServer,
  startSlack,
  SlackServer,
  startDiscord,
  DiscordServer,
  ChatButtonsRepository,
  ensureLinkKey,
} = await importSources('decision-latency', [
  "export { startTelegram } from './main/remote/start-telegram';",
  "export { TelegramServer } from './test/support/telegram-server';",
  "export { startSlack } from './main/remote/start-slack';",
  "export { SlackServer } from './test/support/slack-server';",
  "export { startDiscord } from './main/remote/start-discord';",
  "export { DiscordServer } from './test/support/discord-server';",
  "export { ChatButtonsRepository } from './main/store/chat-buttons-repository';",
  "export { ensureLinkKey } from './main/remote/decision-links';",
  "export { createCore } from './main/core';",
  "export { DashboardServer } from './main/server/dashboard-server';",
  "export { GatehouseClient } from './clients/sdk/client';",
  "export { startNtfyReplies } from './main/remote/start-ntfy-replies';",
  "export { startNtfyServer } from './test/support/ntfy-server';",
]);

const home = mkdtempSync(join(tmpdir(), 'gh-bench-links-'));
const core = createCore({ home, socketPath: join(home, 'agent.sock') });
await core.listen();
const dashboard = new DashboardServer({
  admin: core.admin,
  staticDir: home,
  port: 0,
  pages: core.links.pages('local'),
});
await dashboard.start();
core.attached.attachDashboard(dashboard);
const agent = await GatehouseClient.connect({ agent: 'bench-agent', socketPath: core.socketPath });

// The reply topic: a local ntfy server, and the listener the daemon starts, subscribed to it.
const ntfy = await startNtfyServer();
await core.admin.invoke('settings.set', {
  key: 'notifications.channels.ntfy.server',
  value: ntfy.url,
});
await core.admin.invoke('settings.set', {
  key: 'notifications.channels.ntfy.topic',
  value: 'bench-alerts',
});
await core.admin.invoke('settings.set', {
  key: 'notifications.channels.ntfy.replyTopic',
  value: 'bench-replies',
});
await core.admin.invoke('settings.set', {
  key: 'notifications.channels.ntfy.enabled',
  value: true,
});
let arrivedAt = 0;
let opened;
const subscribed = new Promise((resolve) => (opened = resolve));
const replies = startNtfyReplies({
  home,
  getSettings: () => core.settings.get(),
  subscribe: (listener) => core.admin.subscribe(listener),
  decider: {
    redeemAction: (token, transport) => {
      arrivedAt = performance.now();
      return core.links.decider.redeemAction(token, transport);
    },
  },
  onOpen: () => opened(),
});
await subscribed;

/**
 * What every chat app needs from the core, as the daemon gives it; `arrived` is told when a
 * press reaches Gatehouse (its button's token handed to the link decider).
 */
const chatDeps = (arrived) => ({
  getSettings: () => core.settings.get(),
  subscribe: (listener) => core.admin.subscribe(listener),
  links: core.links.links,
  decider: {
    redeemAction: (token, transport) => {
      arrived(performance.now());
      return core.links.decider.redeemAction(token, transport);
    },
  },
  store: new ChatButtonsRepository(core.db),
  key: ensureLinkKey(home),
  clock: { now: () => Date.now(), setTimer: (ms, fn) => setTimeout(fn, ms) },
  getRequest: async (requestId) => (await core.admin.invoke('request.get', { requestId })).request,
  audit: async (type, fields) => {
    core.engine.recordAudit(type, fields);
    await core.engine.durable();
  },
  log: (m, e) => console.error(m, e),
});

// Telegram: a local Bot API server, and the poller the daemon starts, long polling it.
const BOT_TOKEN = '1:bench';
const PRESSER = { id: 77, first_name: 'Bench' };
const telegramServer = new TelegramServer(BOT_TOKEN);
await telegramServer.listen();
for (const [key, value] of [
  ['apiBase', telegramServer.url],
  ['botToken', BOT_TOKEN],
  ['chatId', '77'],
  ['allowedUserIds', [String(PRESSER.id)]],
  ['enabled', true],
])
  await core.admin.invoke('settings.set', { key: `notifications.channels.telegram.${key}`, value });
let pressArrivedAt = 0;
const telegram = startTelegram(chatDeps((at) => (pressArrivedAt = at)));
await telegramServer.until(() => telegramServer.calls.includes('getUpdates'));

// Slack: a local Web API + Socket Mode server, and the daemon's WebSocket to it.
const SLACK_PRESSER = { id: 'U0BENCH', username: 'bench' };
const slackServer = new SlackServer('xoxb-bench', 'xapp-bench');
await slackServer.listen();
for (const [key, value] of [
  ['apiBase', slackServer.apiBase],
  ['botToken', 'xoxb-bench'],
  ['appToken', 'xapp-bench'],
  ['channel', 'C0BENCH'],
  ['allowedUserIds', [SLACK_PRESSER.id]],
  ['enabled', true],
])
  await core.admin.invoke('settings.set', { key: `notifications.channels.slack.${key}`, value });
let slackArrivedAt = 0;
const slack = startSlack(chatDeps((at) => (slackArrivedAt = at)));
await slackServer.until(() => slackServer.connected);

// Discord: a local Discord, and the Gateway connection the daemon opens to it.
const DISCORD_TOKEN = 'bench.discord.token';
const DISCORD_CHANNEL = '1100000000000000077';
const DISCORD_PRESSER = { id: '2200000000000000077', username: 'bench' };
const discordServer = new DiscordServer(DISCORD_TOKEN, DISCORD_CHANNEL);
await discordServer.listen();
for (const [key, value] of [
  ['apiBase', discordServer.apiBase],
  ['botToken', DISCORD_TOKEN],
  ['channelId', DISCORD_CHANNEL],
  ['allowedUserIds', [DISCORD_PRESSER.id]],
  ['enabled', true],
])
  await core.admin.invoke('settings.set', { key: `notifications.channels.discord.${key}`, value });
let discordArrivedAt = 0;
const discord = startDiscord(chatDeps((at) => (discordArrivedAt = at)));
await discordServer.until(() => discordServer.count('identify') === 1);

// The next request the agent files, from the engine's own event (no polling).
let onCreated;
const unsubscribe = core.admin.subscribe((e) => {
  if (e.type === 'request.created') onCreated?.(e.request.requestId);
});
const filed = () => new Promise((resolve) => (onCreated = resolve));

/** One waiting request: its id, and the agent's answer with the time it arrived. */
async function waitingRequest(i) {
  const created = filed();
  const answered = agent
    .request({ action: 'deploy', description: `deploy ${i}`, urgency: 'high', timeoutMs: 60_000 })
    .then((answer) => ({ answer, at: performance.now() }));
  return { requestId: await created, answered };
}

async function viaLink(i) {
  const { requestId, answered } = await waitingRequest(i);
  const url = core.links.links.decisionLinkFor(requestId, 'ntfy');
  const page = await (await fetch(url)).text();
  const form = /name="form" value="([^"]+)"/.exec(page)[1];
  const t0 = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ form, decision: 'approve' }).toString(),
    redirect: 'manual',
  });
  const posted = performance.now();
  if (response.status !== 303) throw new Error(`POST answered ${response.status}`);
  await response.arrayBuffer();
  const { answer, at } = await answered;
  if (answer.status !== 'approved') throw new Error(`expected approved, got ${answer.status}`);
  return { toAnswer: at - t0, toResponse: posted - t0 };
}

async function viaReplyTopic(i) {
  const { requestId, answered } = await waitingRequest(i);
  const { token } = core.links.links.actionLinkFor(requestId, 'ntfy', 'approve');
  const t0 = performance.now();
  // The Approve button of the notification, pressed as the ntfy app does it.
  const response = await fetch(`${ntfy.url}/bench-replies`, { method: 'POST', body: token });
  if (!response.ok) throw new Error(`ntfy answered ${response.status}`);
  await response.arrayBuffer();
  const { answer, at } = await answered;
  if (answer.status !== 'approved') throw new Error(`expected approved, got ${answer.status}`);
  return { fromPress: at - t0, fromArrival: at - arrivedAt };
}

async function viaTelegram(i) {
  const { requestId, answered } = await waitingRequest(i);
  const keyboard = await telegram.buttons.keyboardFor(requestId);
  const approve = keyboard[0][0].callback_data;
  const t0 = performance.now();
  // The Approve button, tapped: Telegram queues the callback_query for the long poll.
  telegramServer.press(PRESSER, { message_id: 1, chat_id: '77' }, approve);
  const { answer, at } = await answered;
  if (answer.status !== 'approved') throw new Error(`expected approved, got ${answer.status}`);
  return { fromPress: at - t0, fromArrival: at - pressArrivedAt };
}

async function viaSlack(i) {
  const { requestId, answered } = await waitingRequest(i);
  const { buttons } = await slack.buttons.forRequest(requestId);
  const approve = buttons[0];
  const t0 = performance.now();
  // The Approve button, clicked: Slack sends the block_actions envelope down the WebSocket.
  slackServer.press(SLACK_PRESSER, { channel: 'C0BENCH', ts: '1.000100' }, approve);
  const { answer, at } = await answered;
  if (answer.status !== 'approved') throw new Error(`expected approved, got ${answer.status}`);
  return { fromPress: at - t0, fromArrival: at - slackArrivedAt };
}

async function viaDiscord(i) {
  const { requestId, answered } = await waitingRequest(i);
  const { components } = await discord.buttons.messageFor(requestId);
  const approve = components[0].components[0].custom_id;
  const t0 = performance.now();
  // The Approve button, clicked: Discord dispatches INTERACTION_CREATE on the Gateway.
  discordServer.press(DISCORD_PRESSER, { id: '1', channel_id: DISCORD_CHANNEL }, approve);
  const { answer, at } = await answered;
  if (answer.status !== 'approved') throw new Error(`expected approved, got ${answer.status}`);
  return { fromPress: at - t0, fromArrival: at - discordArrivedAt };
}

async function viaAdmin(i) {
  const { requestId, answered } = await waitingRequest(i);
  const t0 = performance.now();
  await core.admin.invoke('decide', { requestId, decision: 'approve', via: 'cli' });
  const { answer, at } = await answered;
  if (answer.status !== 'approved') throw new Error(`expected approved, got ${answer.status}`);
  return at - t0;
}

for (let i = 0; i < Math.min(sized(30, 3), count); i++) {
  await viaLink(`warm-link-${i}`); // JIT, SQLite and connection caches
  await viaReplyTopic(`warm-reply-${i}`);
  await viaTelegram(`warm-telegram-${i}`);
  await viaSlack(`warm-slack-${i}`);
  await viaDiscord(`warm-discord-${i}`);
  await viaAdmin(`warm-admin-${i}`);
}
const link = [];
const linkResponse = [];
const admin = [];
const replyPress = [];
const replyArrival = [];
const telegramPress = [];
const telegramArrival = [];
const slackPress = [];
const slackArrival = [];
const discordPress = [];
const discordArrival = [];
// Interleaved, so both paths see the same machine load.
for (let i = 0; i < count; i++) {
  const l = await viaLink(i);
  link.push(l.toAnswer);
  linkResponse.push(l.toResponse);
  const r = await viaReplyTopic(i);
  replyPress.push(r.fromPress);
  replyArrival.push(r.fromArrival);
  const t = await viaTelegram(i);
  telegramPress.push(t.fromPress);
  telegramArrival.push(t.fromArrival);
  const sl = await viaSlack(i);
  slackPress.push(sl.fromPress);
  slackArrival.push(sl.fromArrival);
  const d = await viaDiscord(i);
  discordPress.push(d.fromPress);
  discordArrival.push(d.fromArrival);
  admin.push(await viaAdmin(i));
}

// Many agents waiting at once: the same admin decision with WAITING requests in the queue.
const WAITING = sized(1000, 50);
const many = await decideWithManyWaiting({ core, waiting: WAITING, sample: sized(200, 10) });

unsubscribe();
await telegram.stop();
await telegramServer.close();
await slack.stop();
await slackServer.close();
await discord.stop();
await discordServer.close();
await replies.stop();
await ntfy.close();
agent.close();
for (;;) {
  const { agents } = await core.admin.invoke('agents.list', {});
  if (agents.every((a) => a.connections === 0)) break;
  await new Promise((r) => setImmediate(r));
}
await dashboard.close();
await core.close();
rmSync(home, { recursive: true, force: true });

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const fmt = (ms) => `${ms.toFixed(2)} ms`;
const line = (label, xs) =>
  `  ${label.padEnd(44)} p50 ${fmt(pct(xs, 50))}   p99 ${fmt(pct(xs, 99))}   max ${fmt(Math.max(...xs))}`;
console.log(`decision latency: ${count} decisions on loopback, agent waiting in request`);
console.log(line('phone page POST → waiting agent answered', link));
console.log(line('phone page POST → its 303 answer', linkResponse));
console.log(line('baseline: admin decide → agent answered', admin));
console.log(
  `  ratio link / admin: p50 ${(pct(link, 50) / pct(admin, 50)).toFixed(2)}x   p99 ${(pct(link, 99) / pct(admin, 99)).toFixed(2)}x`,
);
console.log(line('ntfy reply topic: press → agent answered', replyPress));
console.log(line('ntfy reply topic: message at Gatehouse → answered', replyArrival));
console.log(
  `  ratio reply topic (press) / admin: p50 ${(pct(replyPress, 50) / pct(admin, 50)).toFixed(2)}x   p99 ${(pct(replyPress, 99) / pct(admin, 99)).toFixed(2)}x`,
);
console.log(line('telegram: press queued → agent answered', telegramPress));
console.log(line('telegram: press at Gatehouse → answered', telegramArrival));
console.log(line('slack: envelope sent → agent answered', slackPress));
console.log(line('slack: press at Gatehouse → answered', slackArrival));
console.log(line('discord: press dispatched → agent answered', discordPress));
console.log(line('discord: press at Gatehouse → answered', discordArrival));
console.log(line(`admin decide → answered, ${WAITING} agents waiting`, many.latencies));
console.log(
  `  ratio to one waiting: p50 ${(pct(many.latencies, 50) / pct(admin, 50)).toFixed(2)}x   p99 ${(pct(many.latencies, 99) / pct(admin, 99)).toFixed(2)}x;  ${WAITING} requests filed in ${many.filedMs.toFixed(0)} ms, the other ${many.rest} decided in ${many.restMs.toFixed(0)} ms (${((many.restMs * 1000) / many.rest).toFixed(0)} us each)`,
);
const verdicts = [
  ['admin service', pct(admin, 99)],
  ['phone page', pct(link, 99)],
  ['reply topic', pct(replyPress, 99)],
  ['telegram (press at Gatehouse)', pct(telegramArrival, 99), 20],
  ['slack (press at Gatehouse)', pct(slackArrival, 99), 20],
  ['discord (press at Gatehouse)', pct(discordArrival, 99), 20],
  [`admin with ${WAITING} waiting`, pct(many.latencies, 99)],
].map(([name, p99, target = TARGET_P99_MS]) => ({ name, ok: p99 < target }));
console.log(
  `  target p99 < ${TARGET_P99_MS} ms: ${verdicts.map((v) => `${v.name} ${v.ok ? 'met' : 'MISSED'}`).join(', ')}`,
);
settleTargets(verdicts.some((v) => !v.ok));
