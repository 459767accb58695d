import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiscordGateway, type GatewayState } from '../../../../main/remote/discord-gateway';
import { DiscordApi } from '../../../../main/notify/discord-api';
import { DiscordServer } from '../../../support/discord-server';

/** The Gateway client against the local Discord (test/support/discord-server.ts). */
const TOKEN = 'gateway.unit.token';
const CHANNEL = '1100000000000000003';

describe('Discord Gateway client', () => {
  let server: DiscordServer;
  let gateway: DiscordGateway | undefined;
  const states: GatewayState[] = [];
  const dispatches: { type: string; data: unknown }[] = [];

  beforeEach(async () => {
    server = new DiscordServer(TOKEN, CHANNEL);
    server.heartbeatIntervalMs = 200;
    await server.listen();
    states.length = 0;
    dispatches.length = 0;
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await server.close();
  });

  const start = (token = TOKEN) => {
    gateway = new DiscordGateway({
      token,
      intents: 0,
      gatewayUrl: () => Promise.resolve(server.gatewayUrl),
      onDispatch: (type, data) => {
        dispatches.push({ type, data });
        return Promise.resolve();
      },
      onState: (s) => states.push(s),
      log: () => undefined,
      initialBackoffMs: 50,
    });
    gateway.start();
  };

  it('identifies, heartbeats with the last sequence number, and hands dispatches over in order', async () => {
    start();
    await server.until(() => states.some((s) => s.connected));
    server.press({ id: '1', username: 'a' }, { id: '9', channel_id: CHANNEL }, 'one');
    server.press({ id: '1', username: 'a' }, { id: '9', channel_id: CHANNEL }, 'two');
    await server.until(() => dispatches.length === 2);
    expect(
      dispatches.map((d) => (d.data as { data: { custom_id: string } }).data.custom_id),
    ).toEqual(['one', 'two']);
    const beats = server.heartbeatSeqs.length;
    await server.until(() => server.heartbeatSeqs.length > beats);
    // READY was 1, the two presses 2 and 3.
    expect(server.heartbeatSeqs.at(-1)).toBe(3);
  });

  it('RECONNECT (op 7) resumes the session; a press made meanwhile arrives once', async () => {
    start();
    await server.until(() => states.some((s) => s.connected));
    const disconnects = server.count('disconnect');
    server.askReconnect();
    await server.until(() => server.count('disconnect') > disconnects);
    const id = server.press({ id: '1', username: 'a' }, { id: '9', channel_id: CHANNEL }, 'late');
    await server.until(() => dispatches.length === 1);
    expect(server.count('resume')).toBe(1);
    expect(server.count('identify')).toBe(1);
    expect(server.deliveries.get(id)).toBe(1);
  });

  it('a refused token (close 4004) is shown as failing, with why, and is not a tight loop', async () => {
    start('wrong');
    await server.until(() => states.some((s) => !s.connected));
    const failed = states.find((s) => !s.connected);
    expect(failed?.connected === false && failed.error).toMatch(/authentication failed/);
    expect(failed?.connected === false && failed.error).not.toContain('wrong');
    await new Promise((r) => setTimeout(r, 500));
    // A fatal close waits a minute before the next try, not the 50 ms back-off.
    expect(server.count('identify')).toBe(1);
  });

  it('a token revoked before the Gateway is reached (401 from GET /gateway/bot) shows failing at once', async () => {
    const api = new DiscordApi(() => ({ apiBase: server.apiBase, botToken: 'revoked' }));
    gateway = new DiscordGateway({
      token: 'revoked',
      intents: 0,
      gatewayUrl: () => api.gatewayUrl(),
      onDispatch: () => Promise.resolve(),
      onState: (s) => states.push(s),
      log: () => undefined,
      initialBackoffMs: 50,
    });
    gateway.start();
    await server.until(() => states.length > 0);
    expect(states[0]).toMatchObject({ connected: false });
    const failed = states[0];
    expect(failed?.connected === false && failed.error).toMatch(/gateway\/bot: HTTP 401/);
    expect(failed?.connected === false && failed.error).not.toContain('revoked');
    expect(server.count('connect')).toBe(0);
  });
});
