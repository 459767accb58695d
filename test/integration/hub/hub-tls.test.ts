import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { runCli, TestDaemon, waitForPending } from '../../support/daemon';
import { TestHub, waitForLink } from '../../support/hub';
import { TestPostgres } from '../../support/postgres';
import { selfSigned } from '../../support/self-signed';

/** GET over HTTPS trusting `ca` only: the status, or the TLS error's code. */
function getWithCa(url: string, ca: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(new URL('/api/health', url), { ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end();
  });
}

/**
 * The hub with its own certificate: HTTPS for the API and WSS for the machines' links. A
 * machine checks the certificate (a private CA with `hub join --ca` or NODE_EXTRA_CA_CERTS)
 * and still pins the hub's key.
 */
describe('TLS on the hub', () => {
  let dir: string;
  let tls: { cert: string; key: string };
  let pgServer: TestPostgres;
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-tls-'));
    tls = selfSigned(dir, 'hub', 'IP:127.0.0.1');
    pgServer = await TestPostgres.start();
    hub = await TestHub.start({
      databaseUrl: pgServer.createDatabase('tls'),
      args: ['--bind', '0.0.0.0', '--tls-cert', tls.cert, '--tls-key', tls.key],
    });
    daemon = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await daemon.admin();
  }, 120_000);
  afterAll(async () => {
    admin?.close();
    await daemon?.stop();
    await hub?.stop();
    pgServer?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTPS with the certificate it was given, and does not warn about TLS', async () => {
    expect(hub.url).toMatch(/^https:\/\/0\.0\.0\.0:\d+$/);
    expect(hub.output).not.toContain('without TLS');
    const url = hub.url.replace('0.0.0.0', '127.0.0.1');
    expect(await getWithCa(url, readFileSync(tls.cert, 'utf8'))).toBe(200);
    // Another certificate is not the hub's: the TLS check fails.
    const other = selfSigned(dir, 'other', 'IP:127.0.0.1');
    expect(await getWithCa(url, readFileSync(other.cert, 'utf8'))).toMatch(/CERT|SIGNATURE|SELF/);
    // Plain HTTP to the TLS port gets no API.
    const plain = await fetch(url.replace('https:', 'http:') + '/api/health').then(
      (r) => r.status,
      () => 'refused',
    );
    expect(plain).not.toBe(200);
    // The hub's admin commands on its host trust its own certificate.
    const machines = await runCli(hub.env, ['hub', 'machines', '--url', url]);
    expect(machines).toMatchObject({ code: 0 });
  });

  it('a machine joins over HTTPS only when it trusts the certificate, then links over WSS', async () => {
    const url = hub.url.replace('0.0.0.0', '127.0.0.1');
    const code = await inviteAt(url, 'laptop');
    const untrusted = await daemon.cli(['hub', 'join', url, code]);
    // Matched as one object so that a failure prints what the command said.
    expect(untrusted).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/cannot reach the hub at https:.*(SELF_SIGNED|CERT)/),
    });
    // The code was not spent: nothing reached the hub.
    const joined = await daemon.cli(['hub', 'join', url, code, '--ca', tls.cert]);
    expect(joined).toMatchObject({ code: 0 });
    await waitForLink(daemon, true);
    // A decision made with the CLI over HTTPS reaches the waiting agent through WSS.
    const person = mkdtempSync(join(tmpdir(), 'gatehouse-person-'));
    const env = { ...process.env, GATEHOUSE_HOME: person, GATEHOUSE_SOCKET: join(person, 'x') };
    try {
      const ann = await personAt(url, 'ann');
      const login = await runCli(env, ['hub', 'login', url, '--token', ann, '--ca', tls.cert]);
      expect(login).toMatchObject({ code: 0 });
      const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
      const answer = agent.request({ action: 'git_push', description: 'push over tls' });
      const id = (await waitForPending(admin, (r) => r.description === 'push over tls')).requestId;
      await expect
        .poll(async () => (await runCli(env, ['--hub', url, 'list'])).stdout, { timeout: 15_000 })
        .toContain(id);
      expect((await runCli(env, ['--hub', url, 'approve', id])).code).toBe(0);
      expect(await answer).toMatchObject({ status: 'approved' });
      agent.close();
    } finally {
      rmSync(person, { recursive: true, force: true });
    }
  });

  it('NODE_EXTRA_CA_CERTS trusts the hub too, for the join and the link', async () => {
    const url = hub.url.replace('0.0.0.0', '127.0.0.1');
    const other = await TestDaemon.start({ NODE_EXTRA_CA_CERTS: tls.cert }, ['--no-dashboard']);
    try {
      const code = await inviteAt(url, 'ci-runner');
      expect((await other.cli(['hub', 'join', url, code])).code).toBe(0);
      await waitForLink(other, true);
    } finally {
      await other.stop();
    }
  });

  it('warns when bound to a non-loopback address without TLS, and refuses half a TLS pair', async () => {
    const plain = await TestHub.start({
      databaseUrl: pgServer.createDatabase('plain'),
      args: ['--bind', '0.0.0.0'],
    });
    try {
      expect(plain.url).toMatch(/^http:/);
      expect(plain.output).toContain('WARNING: listening on 0.0.0.0 without TLS');
    } finally {
      await plain.stop();
    }
    const half = await runCli(hub.env, ['hub', '--port', '0', '--tls-cert', tls.cert]);
    expect(half.code).toBe(4);
    expect(half.stderr).toContain('--tls-cert and --tls-key go together');
  });

  async function inviteAt(url: string, machine: string): Promise<string> {
    const r = await runCli(hub.env, ['hub', 'invite', '--machine', machine, '--url', url]);
    if (r.code !== 0) throw new Error(r.stderr);
    return r.stdout.split('\n')[1]!.trim();
  }
  async function personAt(url: string, name: string): Promise<string> {
    const r = await runCli(hub.env, [
      'hub',
      'user',
      'add',
      name,
      '--role',
      'approver',
      '--token',
      '--url',
      url,
    ]);
    if (r.code !== 0) throw new Error(r.stderr);
    return r.stdout.split('\n')[1]!.trim();
  }
});
