import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteStartWarnings } from '../../../main/remote/start-remote';
import { defaultSettings } from '../../../shared/settings/index';
import { freePort } from '../../support/free-port';
import { TestDaemon } from '../../support/daemon';
import { selfSigned } from '../../support/self-signed';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTPS request to the listener on loopback, naming `host` as a phone would. */
function fetchTls(
  o: { port: number; host: string; ca: Buffer },
  path: string,
  method = 'GET',
  body = '',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: o.port,
        path,
        method,
        ca: o.ca,
        // The certificate's name; the Host header is what is under test.
        servername: 'gate.test',
        headers: {
          Host: o.host,
          ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the remote listener (dashboard.remote)', () => {
  let d: TestDaemon;
  let dir: string;
  let port: number;
  let ca: Buffer;
  let publicHost: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-remote-'));
    // A self-signed certificate for the name the phone uses.
    const tls = selfSigned(dir, 'gate.test', 'DNS:gate.test', 1);
    ca = readFileSync(tls.cert);
    port = await freePort();
    publicHost = `gate.test:${port}`;
    d = await TestDaemon.start({}, ['--no-dashboard']);
    for (const [key, value] of [
      ['dashboard.remote.enabled', 'true'],
      ['dashboard.remote.bind', '127.0.0.1'],
      ['dashboard.remote.port', String(port)],
      ['dashboard.remote.publicUrl', `https://${publicHost}/`],
      ['dashboard.remote.tls.cert', tls.cert],
      ['dashboard.remote.tls.key', tls.key],
    ] as [string, string][])
      expect((await d.cli(['config', 'set', key, value])).code).toBe(0);
    // Remote reach takes effect at the next start.
    await d.signal('SIGTERM');
    await d.launch(['--no-dashboard']);
  });
  afterAll(async () => {
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says at start what it serves, over HTTPS, without a warning', () => {
    expect(d.output).toContain(
      `gatehouse: decision links served remotely at https://127.0.0.1:${port}/ as https://${publicHost}/ (pages only)`,
    );
    expect(d.output).not.toContain('warning');
  });

  it('serves the link pages over HTTPS for the public host only, and nothing else', async () => {
    const agent = await d.agent({ agent: 'far-away' });
    const q = await agent.request({ action: 'git_push', description: 'remote push', wait: false });
    const link = await d.cli(['link', q.requestId, '--channel', 'ntfy']);
    const url = new URL(link.stdout.trim());
    expect(url.origin).toBe(`https://${publicHost}`);
    const tls = { port, host: publicHost, ca };

    const pageAnswer = await fetchTls(tls, url.pathname);
    expect(pageAnswer.status).toBe(200);
    expect(pageAnswer.body).toContain('remote push');
    expect(pageAnswer.headers['strict-transport-security']).toBeDefined();
    const css = await fetchTls(tls, '/d/-/phone.css');
    expect(css.status).toBe(200);

    // Another Host (a rebinding name, the bare address): nothing.
    expect((await fetchTls({ ...tls, host: `evil.test:${port}` }, url.pathname)).status).toBe(421);
    expect((await fetchTls({ ...tls, host: `127.0.0.1:${port}` }, url.pathname)).status).toBe(421);
    // No dashboard, no admin API here.
    expect((await fetchTls(tls, '/')).status).toBe(404);
    expect((await fetchTls(tls, '/api/status', 'POST', '{}')).status).toBe(404);
    expect((await fetchTls(tls, '/auth/session', 'POST')).status).toBe(404);

    const form = /name="form" value="([^"]+)"/.exec(pageAnswer.body)![1]!;
    const posted = await fetchTls(
      tls,
      url.pathname,
      'POST',
      new URLSearchParams({ form, decision: 'approve_session' }).toString(),
    );
    expect(posted.status).toBe(303);
    const admin = await d.admin();
    const { request: decided } = await admin.call('request.get', { requestId: q.requestId });
    expect(decided).toMatchObject({
      status: 'approved',
      scope: 'session',
      decidedVia: 'link:ntfy',
    });
    const { events } = await admin.call('audit.query', { requestId: q.requestId });
    expect(events.find((e) => e.type === 'request.approved')!.data).toMatchObject({
      via: 'link:ntfy',
    });
    admin.close();
    agent.close();
  });
});

describe('remote listener warnings', () => {
  const remote = () => structuredClone(defaultSettings().dashboard.remote);

  it('warn about plain HTTP beyond loopback, and about links without a public URL', () => {
    const lan = { ...remote(), bind: '100.101.102.103', publicUrl: 'http://box.tail.ts.net:7418/' };
    expect(remoteStartWarnings(lan)).toEqual([expect.stringContaining('plain HTTP')]);
    const tls = { ...lan, tls: { cert: '/c.pem', key: '/k.pem' } };
    expect(remoteStartWarnings(tls)).toEqual([]);
    const proxied = { ...remote(), bind: '127.0.0.1', publicUrl: 'https://gate.example.net/' };
    expect(remoteStartWarnings(proxied)).toEqual([]);
    expect(remoteStartWarnings({ ...proxied, publicUrl: '' })).toEqual([
      expect.stringContaining('publicUrl is empty'),
    ]);
  });
});
