import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';
import { startSmtpReceiver, type ReceivedMail } from '../../support/notify-receivers';

/** The attachment part of a MIME message, decoded (nodemailer sends it base64 or QP). */
function attachmentOf(mail: ReceivedMail): { filename: string; content: string } | undefined {
  const part =
    /Content-Type: text\/markdown[^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n((?:[A-Za-z-]+: [^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n)*)\r\n([\s\S]*?)\r\n--/.exec(
      mail.raw,
    );
  if (!part) return undefined;
  const headers = part[1]!;
  const filename = /filename="?([^";\r\n]+)"?/.exec(mail.raw)?.[1] ?? '';
  const body = part[2]!;
  const content = /Content-Transfer-Encoding: base64/i.test(headers)
    ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return { filename, content };
}

/**
 * A long session's summary notification carries the session's Markdown report: a real
 * daemon, a real agent over the socket, a real SMTP server.
 */
describe('session report attached to a long summary', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let d: TestDaemon;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const set = async (key: string, value: string) =>
      expect((await d.cli(['config', 'set', key, value])).code).toBe(0);
    await set('notifications.channels.desktop.enabled', 'false');
    await set('notifications.channels.email.enabled', 'true');
    await set('notifications.channels.email.host', '127.0.0.1');
    await set('notifications.channels.email.port', String(smtp.port));
    await set('notifications.channels.email.to', 'owner@example.test');
    await set('notifications.channels.email.minUrgency', 'low');
  });
  afterAll(async () => {
    await d?.stop();
    await smtp?.close();
  });

  const endSession = async (agentName: string, lines: number) => {
    const agent = await d.agent({ agent: agentName });
    for (let i = 1; i <= lines; i++)
      await agent.log({
        type: 'edit_file',
        description: `Edited module ${i} of the parser so that it handles the new syntax`,
      });
    await agent.end('completed');
    agent.close();
  };
  const mailFor = async (agentName: string): Promise<ReceivedMail> => {
    await expect
      .poll(() => smtp.mails.find((m) => m.subject.includes(agentName)), { timeout: 15_000 })
      .toBeDefined();
    return smtp.mails.find((m) => m.subject.includes(agentName))!;
  };

  it('attaches the report when the summary is longer than the notification shows', async () => {
    await endSession('long-runner', 40);
    const mail = await mailFor('long-runner');
    const attachment = attachmentOf(mail);
    expect(attachment?.filename).toMatch(/^gatehouse-report-ses-[\w-]+\.md$/);
    expect(attachment?.content).toMatch(/^# Session report: long-runner/);
    expect(attachment?.content).toContain('Edited module 40 of the parser');
  });

  it('sends a short summary without an attachment', async () => {
    await endSession('short-runner', 1);
    const mail = await mailFor('short-runner');
    expect(attachmentOf(mail)).toBeUndefined();
    expect(mail.raw).not.toContain('gatehouse-report-');
  });
});
