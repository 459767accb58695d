import { describe, expect, it } from 'vitest';
import type { ChannelHealth } from '../../../../shared/protocol/admin-methods';
import type { ChannelId } from '../../../../shared/settings/notifications';
import { WayBackTracker, withWayBack } from '../../../../main/remote/chat-way-back-health';

const notifier = (health: ChannelHealth[]) => ({
  health: () => health,
  test: (channel: ChannelId) => Promise.resolve({ channel, ok: true }),
});

describe("a chat app's way back in the channel health", () => {
  it('keeps `since` across failed retries, and moves it when the connection comes up or goes down', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const t = new WayBackTracker(() => now);
    expect(t.current()).toBeUndefined();
    t.starting();
    expect(t.current()).toEqual({ connected: false, since: '2026-01-01T00:00:00.000Z' });
    now += 1_000;
    t.report({ connected: false, error: 'HTTP 401' });
    now += 1_000;
    t.report({ connected: false, error: 'HTTP 401 again' });
    expect(t.current()).toEqual({
      connected: false,
      since: '2026-01-01T00:00:00.000Z',
      error: 'HTTP 401 again',
    });
    now += 1_000;
    t.report({ connected: true });
    expect(t.current()).toEqual({ connected: true, since: '2026-01-01T00:00:03.000Z' });
    t.clear();
    expect(t.current()).toBeUndefined();
  });

  it('a way back that failed makes its channel failing with the error; one still connecting does not; a disabled channel shows none', () => {
    const base: ChannelHealth[] = [
      { channel: 'telegram', enabled: true, state: 'ok', lastDeliveryAt: '2026-01-01T00:00:00Z' },
      { channel: 'slack', enabled: true, state: 'idle' },
      { channel: 'discord', enabled: false, state: 'disabled' },
      { channel: 'ntfy', enabled: true, state: 'ok' },
    ];
    const health = withWayBack(notifier(base), {
      telegram: () => ({ connected: false, since: 'T1', error: 'getUpdates: HTTP 401' }),
      slack: () => ({ connected: false, since: 'T2' }),
      discord: () => ({ connected: true, since: 'T3' }),
    }).health();
    expect(health[0]).toMatchObject({
      state: 'failing',
      lastErrorAt: 'T1',
      lastError: 'getUpdates: HTTP 401',
      wayBack: { connected: false, error: 'getUpdates: HTTP 401' },
    });
    expect(health[1]).toEqual({ ...base[1], wayBack: { connected: false, since: 'T2' } });
    expect(health[2]).toEqual(base[2]);
    expect(health[3]).toEqual(base[3]);
  });
});
