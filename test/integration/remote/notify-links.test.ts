import { describe, expect, it, vi } from 'vitest';
import { Settings } from '../../../shared/settings';
import { DecisionLinks } from '../../../main/remote/decision-links';
import { notifyLinks } from '../../../main/remote/notify-links';
import { EmailChannel } from '../../../main/notify/email-channel';
import { WebhookChannel, type WebhookPayload } from '../../../main/notify/webhook-channel';
import { FakeClock } from '../../support/fake-clock';
import {
  closersAfterEach,
  makeRequest,
  makeSettings,
  startDispatcher,
  TestBus,
} from '../../support/notify-fixtures';
import { startSmtpReceiver, startWebhookReceiver } from '../../support/notify-receivers';

const KEY = 'test-link-signing-key-0123456789abcdef';
const closers = closersAfterEach();

/** Real decision links on a public URL, as `dashboard.remote.publicUrl` would give. */
function links(clock: FakeClock) {
  const dashboard = Settings.parse({
    dashboard: { remote: { enabled: true, publicUrl: 'https://gate.example.test/' } },
  }).dashboard;
  const built = new DecisionLinks({
    key: KEY,
    now: () => clock.now(),
    settings: () => dashboard,
    localBaseUrl: () => undefined,
  });
  return { built, linksFor: notifyLinks(built) };
}

const LINK = /https:\/\/gate\.example\.test\/d\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}(\/act)?/g;

/** The mail's parts as a mail client shows them: quoted-printable undone. */
const decoded = (raw: string): string =>
  Buffer.from(
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

describe('email and webhook carry the way back', () => {
  it('email: the signed page link and one link per decision in the text, and a simple HTML part', async () => {
    const smtp = await startSmtpReceiver();
    closers.push(smtp.close);
    const clock = new FakeClock();
    const bus = new TestBus();
    const { built, linksFor } = links(clock);
    const settings = makeSettings({
      reminder: { enabled: false },
      channels: {
        desktop: { enabled: false },
        email: { enabled: true, host: '127.0.0.1', port: smtp.port, to: 'me@example.test' },
      },
    });
    const dispatcher = startDispatcher({
      clock,
      bus,
      settings,
      channels: [
        new EmailChannel({
          clock,
          getConfig: () => settings.notifications.channels.email,
          linksFor,
        }),
      ],
    });
    closers.push(async () => dispatcher.stop());
    const r = makeRequest({ urgency: 'high', description: 'drop the <staging> table & rebuild' });
    bus.publish({ type: 'request.created', request: r });
    await vi.waitFor(() => expect(smtp.mails).toHaveLength(1));
    const mail = decoded(smtp.mails[0]!.raw);
    expect(mail).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail).toMatch(/Content-Type: text\/plain/);
    expect(mail).toMatch(/Content-Type: text\/html/);

    const text = /Open the request: (\S+)\r?\nApprove: (\S+)\r?\nDeny: (\S+)/.exec(mail);
    expect(text).not.toBeNull();
    const [, page, approve, deny] = text as unknown as [string, string, string, string];
    const tokenOf = (url: string) => url.slice('https://gate.example.test/d/'.length);
    const claims = (url: string) => {
      const v = built.verify(tokenOf(url));
      if (!v.ok) throw new Error(`link does not verify: ${v.reason}`);
      return v.claims;
    };
    expect(claims(page)).toMatchObject({ requestId: r.requestId, channel: 'email' });
    expect(claims(page).decisions).toEqual(['approve', 'approve_session', 'deny']);
    expect(claims(approve).decisions).toEqual(['approve']);
    expect(claims(deny).decisions).toEqual(['deny']);
    // Links to the page only: no decision happens on a click (no /act URL in a mail).
    expect(mail.match(LINK)!.every((u) => !u.endsWith('/act'))).toBe(true);
    // The HTML part escapes what the agent wrote and offers the same links.
    expect(mail).toContain('drop the &lt;staging&gt; table &amp; rebuild');
    expect(mail).toContain(`href="${approve}"`);
    expect(mail).toContain(`href="${deny}"`);
  });

  it('webhook: the payload gains the page links and the decision URLs a receiver can POST to', async () => {
    const receiver = await startWebhookReceiver('s3cret');
    closers.push(receiver.close);
    const clock = new FakeClock();
    const { built, linksFor } = links(clock);
    const settings = makeSettings({
      channels: { webhook: { enabled: true, url: receiver.url, secret: 's3cret' } },
    });
    const channel = new WebhookChannel({
      clock,
      getConfig: () => settings.notifications.channels.webhook,
      linksFor,
    });
    await channel.send({
      id: 'n-1',
      urgency: 'high',
      title: 't',
      body: 'b',
      items: [],
      requestId: 'req-77',
    });
    const payload = JSON.parse(receiver.hits[0]!.body) as WebhookPayload;
    expect(payload.links?.page).toMatch(LINK);
    const act = payload.links!.actions!;
    expect(act.approve).toMatch(/\/act$/);
    expect(act.deny).toMatch(/\/act$/);
    const approveToken = act.approve.slice('https://gate.example.test/d/'.length, -'/act'.length);
    const v = built.verify(approveToken);
    expect(v.ok && v.claims).toMatchObject({
      requestId: 'req-77',
      channel: 'webhook',
      decisions: ['approve'],
    });
  });
});
