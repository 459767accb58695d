/**
 * The desktop composition root joins a team hub as the headless daemon does: the tray app
 * (electron-main, with the recording fake of fake-electron.ts; the core is real) starts the
 * hub link, so once `gatehouse hub join` wrote the link, what its agents ask is published and
 * a person's decision on the hub releases the waiting agent. The hub is real too (in-process,
 * its embedded PostgreSQL).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { joinHub } from '../../../../clients/cli/commands/hub-join';
import { GatehouseClient } from '../../../../clients/sdk/client';
import { startHub, type RunningHub } from '../../../../main/hub/hub-main';
import { hubFiles } from '../../../../shared/node/hub-files';
import { fake } from './fake-electron';

vi.mock('electron', async () => {
  const { fake } = await import('./fake-electron');
  return { ...fake.electron, default: fake.electron };
});
vi.mock('electron-store', async () => ({
  default: (await import('./fake-electron')).ElectronStoreOverConf,
}));

const dir = mkdtempSync(join(tmpdir(), 'gh-shell-hub-'));
const home = join(dir, 'machine');
const hubHome = join(dir, 'hub');
const socketPath = join(dir, 'agent.sock');
const savedEnv = { ...process.env };

describe('the desktop app joined to a team hub', () => {
  let hub: RunningHub;
  let agent: GatehouseClient | undefined;

  /** A call to the hub's HTTP API with a bearer token. */
  async function api(method: 'GET' | 'POST', path: string, token: string, body?: unknown) {
    const res = await fetch(new URL(path, hub.url), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    hub = await startHub({
      home: hubHome,
      port: 0,
      bind: '127.0.0.1',
      print: () => undefined,
      staticDir: dir,
    });
    process.env.GATEHOUSE_HOME = home;
    process.env.GATEHOUSE_SOCKET = socketPath;
    process.env.XDG_CONFIG_HOME = home;
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'shell-settings.json'), JSON.stringify({ startHidden: true }));
    await import('../../../../main/shell/electron-main');
    await vi.waitFor(() => expect(fake.state.trays).toHaveLength(1), { timeout: 20_000 });
  }, 120_000);
  afterAll(async () => {
    agent?.close();
    if (!fake.state.quitting) fake.electron.app.quit();
    await vi.waitFor(() => expect(fake.state.quitting).toBe(true), { timeout: 10_000 });
    await hub?.stop();
    process.env = savedEnv;
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes what its agent asks, and applies a decision made on the hub', async () => {
    const adminToken = readFileSync(hubFiles(hubHome).adminToken, 'utf8').trim();
    const invite = await api('POST', '/api/admin/invite', adminToken, { machine: 'desk' });
    const person = await api('POST', '/api/admin/people', adminToken, {
      name: 'ann',
      role: 'approver',
      token: true,
    });
    const annToken = person.body.token as string;
    await joinHub(home, hub.url, invite.body.code as string);

    agent = await GatehouseClient.connect({ agent: 'desk-agent', socketPath });
    const answer = agent.request({ action: 'git_push', description: 'push from the tray app' });
    let requestId = '';
    await vi.waitFor(
      async () => {
        const page = await api('GET', '/api/requests/page?waiting=1', annToken);
        const found = (
          page.body.requests as {
            machine: string;
            request: { requestId: string; description: string };
          }[]
        ).find((r) => r.request.description === 'push from the tray app');
        expect(found?.machine).toBe('desk');
        requestId = found!.request.requestId;
      },
      { timeout: 20_000, interval: 100 },
    );
    const decided = await api('POST', '/api/decide', annToken, {
      machine: 'desk',
      requestId,
      decision: 'approve',
    });
    expect(decided.status).toBe(200);
    expect(await answer).toMatchObject({ status: 'approved' });
    // The machine published the outcome: the hub shows who decided and how.
    await vi.waitFor(
      async () => {
        const one = await api('GET', `/api/requests/one?id=${requestId}`, annToken);
        expect((one.body.request as { decidedVia?: string }).decidedVia).toBe('hub:ann');
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});
