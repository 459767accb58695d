import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { verifyWebhookSignature } from '../../main/notify/webhook-signature';
import { readBody } from './http-body';

/** One POST as the receiver saw it. */
export interface WebhookHit {
  body: string;
  signature: string | undefined;
  signatureValid: boolean;
  delivery: string | undefined;
  status: number;
}

/**
 * A real HTTP server on 127.0.0.1 that checks the HMAC signature of every POST. `statuses`
 * scripts the answers in order (the last one repeats); a bad signature always gets 401.
 */
export async function startWebhookReceiver(secret: string, statuses: number[] = [200]) {
  const hits: WebhookHit[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const signature = req.headers['x-gatehouse-signature'] as string | undefined;
      const signatureValid = verifyWebhookSignature(secret, body, signature);
      const scripted = statuses[Math.min(hits.length, statuses.length - 1)] ?? 200;
      const status = signatureValid ? scripted : 401;
      hits.push({
        body,
        signature,
        signatureValid,
        delivery: req.headers['x-gatehouse-delivery'] as string | undefined,
        status,
      });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/gatehouse`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One message as the SMTP server received it. */
export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  raw: string;
  subject: string;
  /** The text body, quoted-printable decoded. */
  text: string;
}

const decodeQuotedPrintable = (s: string): string =>
  Buffer.from(
    s
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
  const qp = /^Content-Transfer-Encoding: quoted-printable/im.test(head);
  return { subject, text: qp ? decodeQuotedPrintable(body) : body };
}

/**
 * A real SMTP server on 127.0.0.1 (no TLS, no auth). `failFirst` rejects that many messages
 * with a temporary error before accepting.
 */
export async function startSmtpReceiver(options: { failFirst?: number } = {}) {
  const mails: ReceivedMail[] = [];
  let rejected = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (rejected < (options.failFirst ?? 0)) {
          rejected += 1;
          const err = Object.assign(new Error('try again later'), { responseCode: 451 });
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom;
        mails.push({
          from: from ? from.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    mails,
    rejected: () => rejected,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
