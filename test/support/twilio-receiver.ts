import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './http-body';

/** One text as the receiver accepted it. */
export interface ReceivedSms {
  from: string;
  to: string;
  body: string;
}

/**
 * A local stand-in for Twilio's Messages API, written from Twilio's REST docs ("Create a
 * Message resource"): `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP basic auth
 * with the account SID and auth token, an `application/x-www-form-urlencoded` body with `From`,
 * `To` and `Body`. It answers 201 with a message resource, or Twilio's error JSON: 404 for
 * another path, 401 (code 20003) for bad credentials, 400 (code 21604 / 21603 / 21602) for a
 * missing field. `failFirst` answers that many requests with 503 first.
 */
export async function startTwilioReceiver(
  accountSid: string,
  authToken: string,
  options: { failFirst?: number } = {},
) {
  const texts: ReceivedSms[] = [];
  const refusals: { status: number; code: number }[] = [];
  let failed = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const answer = (status: number, body: Record<string, unknown>): void => {
        if (status >= 400) refusals.push({ status, code: Number(body.code) });
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      const error = (status: number, code: number, message: string): void =>
        answer(status, {
          code,
          message,
          more_info: `https://www.twilio.com/docs/errors/${code}`,
          status,
        });
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json`)
        return error(404, 20404, 'The requested resource was not found');
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return error(401, 20003, 'Authenticate');
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
        return error(400, 21604, "A 'To' phone number is required.");
      if (failed < (options.failFirst ?? 0)) {
        failed += 1;
        return error(503, 20503, 'Service unavailable');
      }
      const form = new URLSearchParams(raw);
      const to = form.get('To');
      const from = form.get('From');
      const body = form.get('Body');
      if (!to) return error(400, 21604, "A 'To' phone number is required.");
      if (!from) return error(400, 21603, "A 'From' phone number is required.");
      if (!body) return error(400, 21602, 'Message body is required.');
      texts.push({ from, to, body });
      answer(201, {
        sid: `SM${randomBytes(16).toString('hex')}`,
        account_sid: accountSid,
        from,
        to,
        body,
        status: 'queued',
        num_segments: String(Math.ceil(body.length / 153)),
        api_version: '2010-04-01',
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}`,
    texts,
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
