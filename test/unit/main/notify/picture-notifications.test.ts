import { afterEach, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../../shared/domain';
import type { RequestPicture } from '../../../../shared/request-picture/picture-schema';
import { NotificationDispatcher } from '../../../../main/notify/dispatcher';
import { emailHtmlOf } from '../../../../main/notify/email-html';
import { ntfyMessageOf } from '../../../../main/notify/ntfy-channel';
import { smsTextOf } from '../../../../main/notify/sms-channel';
import { FakeClock } from '../../../support/fake-clock';
import {
  makeRequest,
  makeSettings,
  RecordingChannel,
  TestBus,
} from '../../../support/notify-fixtures';

const picture: RequestPicture = {
  files: [
    {
      path: '/p/src/pay.ts',
      kind: 'modify',
      added: 2,
      removed: 1,
      diff: '--- a/p/src/pay.ts\n+++ b/p/src/pay.ts\n@@ -1 +1,2 @@\n-old <b>\n+new & improved\n+more',
    },
  ],
  push: {
    remote: 'origin',
    branch: 'main',
    force: true,
    commits: [],
    commitCount: 3,
    diffstat: ' a | 1 +\n 2 files changed, 5 insertions(+)',
  },
};

function setup(pictureWaitMs?: number, inferUrgency = true) {
  const clock = new FakeClock(Date.parse('2026-01-05T09:00:00Z'));
  const bus = new TestBus();
  const desktop = new RecordingChannel('desktop');
  const settings = makeSettings({});
  const dispatcher = new NotificationDispatcher({
    clock,
    subscribe: bus.subscribe,
    getSettings: () => ({ ...settings, requests: { ...settings.requests, inferUrgency } }),
    channels: [desktop],
    timeZone: 'UTC',
    log: () => undefined,
    ...(pictureWaitMs !== undefined ? { pictureWaitMs } : {}),
  });
  dispatcher.start();
  stops.push(() => dispatcher.stop());
  const request = (overrides: Partial<RequestRecord> = {}): RequestRecord => {
    const r = makeRequest({ createdAt: new Date(clock.now()).toISOString(), ...overrides });
    bus.publish({ type: 'request.created', request: r });
    return r;
  };
  return { clock, bus, desktop, request };
}

let stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops) s();
  stops = [];
});

describe('notifications say what a request changes', () => {
  it("waits for the request's picture, then carries its diffstat and commit count", () => {
    const t = setup(1000);
    const r = t.request();
    expect(t.desktop.sent).toHaveLength(0);
    t.bus.publish({ type: 'request.picture', requestId: r.requestId, picture });
    expect(t.desktop.sent).toHaveLength(1);
    const n = t.desktop.sent[0]!;
    expect(n.body).toContain(
      'Changes: pay.ts +2 −1; push 3 commits to origin/main (FORCE): 2 files changed, 5 insertions(+)',
    );
    expect(ntfyMessageOf(n.items[0]!)).toContain('Changes: pay.ts +2 −1; push 3 commits');
    expect(smsTextOf(n, undefined)).toContain('pay.ts +2 −1');
    // The email's HTML part carries the diff, escaped.
    const html = emailHtmlOf(n, undefined, 'footer');
    expect(html).toContain('-old &lt;b&gt;');
    expect(html).toContain('+new &amp; improved');
    expect(html).not.toContain('<b>');
    // Once sent, a late picture sends nothing more.
    t.bus.publish({ type: 'request.picture', requestId: r.requestId, picture });
    expect(t.desktop.sent).toHaveLength(1);
  });

  it('goes without the picture when it does not come in time, and not at all once decided', () => {
    const t = setup(1000);
    t.request();
    t.clock.advance(999);
    expect(t.desktop.sent).toHaveLength(0);
    t.clock.advance(1);
    expect(t.desktop.sent).toHaveLength(1);
    expect(t.desktop.sent[0]!.body).not.toContain('Changes:');
    const decided = t.request();
    t.bus.publish({ type: 'request.decided', request: { ...decided, status: 'approved' } });
    t.clock.advance(5000);
    expect(t.desktop.sent).toHaveLength(1);
  });

  it('goes at once without a wait configured', () => {
    const t = setup();
    t.request();
    expect(t.desktop.sent).toHaveLength(1);
  });

  it('sends a request the agent gave no urgency at the urgency inferred for it, saying why, unless turned off', () => {
    const on = setup();
    on.request({ action: 'deploy', command: 'kubectl apply -f k8s/prod.yaml' });
    expect(on.desktop.sent[0]!.urgency).toBe('high');
    expect(on.desktop.sent[0]!.body).toContain('Urgency: high (inferred: it targets production)');
    const off = setup(undefined, false);
    off.request({ action: 'deploy', command: 'kubectl apply -f k8s/prod.yaml' });
    expect(off.desktop.sent[0]!.urgency).toBe('normal');
    expect(off.desktop.sent[0]!.body).toContain('Urgency: normal');
  });
});
