import { describe, expect, it, vi } from 'vitest';
import { EmailChannel } from '../../../main/notify/email-channel';
import {
  closersAfterEach,
  makeRequest,
  startChannelDispatcher,
} from '../../support/notify-fixtures';
import { startSmtpReceiver } from '../../support/notify-receivers';

const closers = closersAfterEach();

/** The raw message with quoted-printable soft breaks and ASCII escapes undone. */
const unquoted = (raw: string): string =>
  raw
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('the email of a request with a picture (real SMTP server)', () => {
  it('says what changes in the text and carries the diff, escaped, in the HTML part', async () => {
    const smtp = await startSmtpReceiver({});
    closers.push(smtp.close);
    const { bus } = startChannelDispatcher({
      closers,
      channels: {
        email: {
          enabled: true,
          minUrgency: 'low',
          host: '127.0.0.1',
          port: smtp.port,
          from: 'Gatehouse <gatehouse@example.test>',
          to: 'owner@example.test',
          initialBackoffMs: 2000,
        },
      },
      make: ({ clock, settings, log }) =>
        new EmailChannel({ clock, getConfig: () => settings.notifications.channels.email, log }),
    });
    const request = makeRequest({
      urgency: 'high',
      picture: {
        files: [
          {
            path: '/srv/app/src/pay.ts',
            kind: 'modify',
            added: 1,
            removed: 1,
            diff: '--- a/srv/app/src/pay.ts\n+++ b/srv/app/src/pay.ts\n@@ -1 +1 @@\n-const fee = 1; // <old>\n+const fee = 2; // <script>x</script>',
          },
        ],
      },
    });
    bus.publish({ type: 'request.created', request });
    await vi.waitFor(() => expect(smtp.mails).toHaveLength(1));
    const mail = smtp.mails[0]!;
    expect(mail.text).toContain('Changes: pay.ts +1');
    const raw = unquoted(mail.raw);
    expect(raw).toContain('+const fee = 2; // &lt;script&gt;x&lt;/script&gt;');
    expect(raw).toContain('-const fee = 1; // &lt;old&gt;');
    expect(raw).not.toContain('<script>');
  });
});
