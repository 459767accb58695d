import { describe, expect, it, vi } from 'vitest';
import { desktopDaemonPerFile } from '../../support/notify-desktop-env';

/**
 * The real `gatehouse daemon` process on a private X display and D-Bus session with dunst:
 * an agent files requests over the socket, the headless notifier (node-notifier → notify-send)
 * shows them, and the text is read back with `dunstctl history`.
 */
const { desktop, daemon } = desktopDaemonPerFile();

/** Local HH:MM `minutes` from now, wrapping around midnight like the setting does. */
const localHhmm = (minutes: number): string => {
  const d = new Date(Date.now() + minutes * 60_000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

const summaries = async (): Promise<string[]> =>
  (await desktop().notifications()).map((n) => n.summary);

describe('desktop notifications from the real daemon', () => {
  it('shows a high-urgency request filed over the socket, with how to decide it', async () => {
    const agent = await daemon().agent({ agent: 'release-bot' });
    try {
      const answer = await agent.request({
        action: 'deploy',
        description: 'deploy release 4.1 to production',
        rationale: 'all checks are green',
        urgency: 'high',
        wait: false,
      });
      expect(answer.status).toBe('queued');
      await vi.waitFor(
        async () => {
          const mine = (await desktop().notifications()).find(
            (n) => n.summary === 'release-bot wants to deploy',
          );
          expect(mine?.body).toContain('deploy release 4.1 to production');
          expect(mine?.body).toContain('Why: all checks are green');
          expect(mine?.body).toContain(`gatehouse approve ${answer.requestId}`);
        },
        { timeout: 15_000, interval: 100 },
      );
    } finally {
      agent.close();
    }
  });

  it('keeps a low-urgency request quiet during quiet hours while a high one gets through', async () => {
    // A window around now: it spans midnight whenever the test runs near it.
    for (const [key, value] of [
      ['notifications.quietHours.start', localHhmm(-60)],
      ['notifications.quietHours.end', localHhmm(60)],
      ['notifications.quietHours.enabled', 'true'],
    ] as const) {
      const r = await daemon().cli(['config', 'set', key, value]);
      expect(r.code, r.stderr).toBe(0);
    }
    // Two agents, two sessions: the per-session cooldown plays no part here.
    const quiet = await daemon().agent({ agent: 'night-indexer' });
    const loud = await daemon().agent({ agent: 'night-pager' });
    try {
      await quiet.request({
        action: 'send_email',
        description: 'mail the nightly index report',
        urgency: 'low',
        wait: false,
      });
      await loud.request({
        action: 'deploy',
        description: 'roll back the broken release',
        urgency: 'high',
        wait: false,
      });
      await vi.waitFor(
        async () => expect(await summaries()).toContain('night-pager wants to deploy'),
        { timeout: 15_000, interval: 100 },
      );
      expect(await summaries()).not.toContain('night-indexer wants to send_email');
    } finally {
      quiet.close();
      loud.close();
    }
  });
});
