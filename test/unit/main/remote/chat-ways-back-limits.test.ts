import { afterEach, describe, expect, it } from 'vitest';
import { DiscordApi } from '../../../../main/notify/discord-api';
import { SlackApi } from '../../../../main/notify/slack-api';
import { TelegramApi } from '../../../../main/notify/telegram-api';
import { DiscordGateway, type GatewayState } from '../../../../main/remote/discord-gateway';
import { SlackSocket } from '../../../../main/remote/slack-socket';
import { TelegramPoller } from '../../../../main/remote/telegram-poller';
import { systemClock } from '../../../../shared/node/system-clock';
import { DiscordServer } from '../../../support/discord-server';
import { FakeClock } from '../../../support/fake-clock';
import { SlackServer } from '../../../support/slack-server';
import { TelegramServer } from '../../../support/telegram-server';

/**
 * The ways back keep their connection alive and obey the app's limits: Slack's Socket Mode
 * pings every interval and drops a connection that answers nothing; a 429 on the call that
 * (re)opens a way back (Telegram's getUpdates, Slack's apps.connections.open, Discord's
 * GET /gateway/bot) is waited out in full. Each against its app's local server.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

describe('Slack Socket Mode liveness ping', () => {
  async function connect(pingIntervalMs: number) {
    const server = new SlackServer('xoxb-live', 'xapp-live');
    await server.listen();
    const config = { apiBase: server.apiBase, botToken: 'xoxb-live', appToken: 'xapp-live' };
    const socket = new SlackSocket({
      api: new SlackApi(() => config),
      apiBase: () => config.apiBase,
      clock: systemClock,
      onInteractive: () => Promise.resolve(),
      log: () => undefined,
      initialBackoffMs: 20,
      pingIntervalMs,
    });
    socket.start();
    stops.push(
      () => server.close(),
      () => socket.stop(),
    );
    await server.until(() => server.connected);
    return server;
  }

  it('a connection that answers its pings stays up', async () => {
    const server = await connect(50);
    await until(() => server.pings >= 5);
    expect(server.connections).toBe(1);
  });

  it('a connection gone quiet (no pong) is dropped at the next ping and opened again', async () => {
    const server = await connect(50);
    await until(() => server.pings >= 1);
    server.silent = true;
    await until(() => server.connections === 2);
    // The new connection is the one that answers again.
    server.silent = false;
    const pings = server.pings;
    await until(() => server.pings >= pings + 3);
    expect(server.connections).toBe(2);
  });
});

describe('a 429 on reopening a way back is waited out', () => {
  it("Telegram: getUpdates answered 429 polls again after retry_after, not the poller's 1 s", async () => {
    const server = new TelegramServer('42:poll-limit');
    await server.listen();
    server.rateLimit('getUpdates', 5);
    const clock = new FakeClock();
    const config = { apiBase: server.url, botToken: server.token };
    const states: boolean[] = [];
    const poller = new TelegramPoller({
      api: new TelegramApi(() => config),
      clock,
      cursor: { read: () => undefined, write: () => undefined },
      onUpdate: () => Promise.resolve(),
      log: () => undefined,
      onState: (s) => states.push(s.connected),
      pollTimeoutS: 1,
    });
    poller.start();
    stops.push(
      () => server.close(),
      () => poller.stop(),
    );
    const polls = () => server.calls.filter((c) => c === 'getUpdates').length;
    await until(() => polls() === 1 && states.length === 1);
    expect(states).toEqual([false]);
    clock.advance(4_999);
    await sleep(200);
    expect(polls()).toBe(1);
    clock.advance(1);
    // The poll after a failure is answered at once; the next one follows straight away.
    await until(() => polls() >= 2 && states.length === 2);
    expect(states).toEqual([false, true]);
  });

  it('Slack: apps.connections.open answered 429 connects after Retry-After', async () => {
    const server = new SlackServer('xoxb-open', 'xapp-open');
    await server.listen();
    server.rateLimit('apps.connections.open', 5);
    const clock = new FakeClock();
    const config = { apiBase: server.apiBase, botToken: 'xoxb-open', appToken: 'xapp-open' };
    const socket = new SlackSocket({
      api: new SlackApi(() => config),
      apiBase: () => config.apiBase,
      clock,
      onInteractive: () => Promise.resolve(),
      log: () => undefined,
      initialBackoffMs: 10,
    });
    socket.start();
    stops.push(
      () => server.close(),
      () => socket.stop(),
    );
    const opens = () => server.calls.filter((c) => c === 'apps.connections.open').length;
    await until(() => opens() === 1);
    await sleep(100);
    clock.advance(4_999);
    await sleep(200);
    expect(opens()).toBe(1);
    clock.advance(1);
    await server.until(() => server.connected);
    expect(opens()).toBe(2);
  });

  it('Discord: GET /gateway/bot answered 429 reconnects after retry_after, not after its 50 ms back-off', async () => {
    const token = 'gateway.limit.token';
    const server = new DiscordServer(token, '1100000000000000005');
    server.heartbeatIntervalMs = 200;
    await server.listen();
    server.rateLimit('GET /gateway/bot', 1);
    const api = new DiscordApi(() => ({ apiBase: server.apiBase, botToken: token }));
    const states: GatewayState[] = [];
    const gateway = new DiscordGateway({
      token,
      intents: 0,
      gatewayUrl: () => api.gatewayUrl(),
      onDispatch: () => Promise.resolve(),
      onState: (s) => states.push(s),
      log: () => undefined,
      initialBackoffMs: 50,
    });
    const started = Date.now();
    gateway.start();
    stops.push(
      () => server.close(),
      () => gateway.stop(),
    );
    await until(() => server.count('identify') === 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.ops.filter((o) => o === 'GET /gateway/bot')).toHaveLength(2);
  });
});
