import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatehouseClient } from '../../../clients/sdk/client';
import type { DesktopNotice } from '../../../main/notify/desktop-port';
import { ListenerSettingError } from '../../../main/remote/start-remote';
import {
  startRuntime,
  type DesktopDecide,
  type Runtime,
} from '../../../main/runtime/start-runtime';

/**
 * The runtime both roots start (main/runtime/start-runtime.ts), driven as the desktop app
 * drives it: no loopback dashboard, its own desktop notices. Real core, socket and database in
 * a temporary folder; the desktop notices are recorded where Electron would show them.
 */
let home: string;
let runtime: Runtime | undefined;
const shown: DesktopNotice[] = [];
let decide: DesktopDecide | undefined;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'gh-runtime-'));
  shown.length = 0;
  decide = undefined;
});

afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  rmSync(home, { recursive: true, force: true });
});

const start = (extra: Partial<Parameters<typeof startRuntime>[0]> = {}): Promise<Runtime> =>
  startRuntime({
    home,
    socketPath: join(home, 'agent.sock'),
    env: { ...process.env, GATEHOUSE_HOME: home },
    desktop: (o) => {
      decide = o.decide;
      return {
        show: (notice) => {
          shown.push(notice);
          return Promise.resolve();
        },
      };
    },
    print: () => undefined,
    log: () => undefined,
    ...extra,
  });

describe('the runtime both roots start', () => {
  it('attaches its notifier to the core: status shows its channels, the test goes through it', async () => {
    runtime = await start();
    const { admin } = runtime.core;
    const status = await admin.invoke('status', {});
    expect(status.channels?.find((c) => c.channel === 'desktop')).toMatchObject({
      enabled: true,
    });
    const test = await admin.invoke('notifications.test', { channel: 'desktop' });
    expect(test).toMatchObject({ channel: 'desktop', ok: true });
    expect(shown).toHaveLength(1);
    // No dashboard runs in the desktop app: status names none, links have no page to name.
    expect(status.dashboardUrl).toBeUndefined();
  });

  it("a desktop notice's Approve decides the request an agent waits on, recorded as desktop", async () => {
    runtime = await start();
    const agent = await GatehouseClient.connect({
      agent: 'runtime-bot',
      socketPath: runtime.core.socketPath,
    });
    try {
      const answer = agent.request({
        action: 'git_push',
        description: 'push the release tag',
        urgency: 'high',
        wait: true,
        timeoutMs: 30_000,
      });
      await vi.waitFor(() => expect(shown.some((n) => n.requestId)).toBe(true), {
        timeout: 10_000,
        interval: 20,
      });
      const requestId = shown.find((n) => n.requestId)!.requestId!;
      await decide!(requestId, 'approve');
      expect((await answer).status).toBe('approved');
      const { request } = await runtime.core.admin.invoke('request.get', { requestId });
      expect(request.decidedVia).toBe('desktop');
    } finally {
      agent.close();
    }
  });

  it('a step that fails stops what started: the socket and the data folder are free again', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(start({ dashboard: { port: () => port, staticDir: home } })).rejects.toThrow(
        ListenerSettingError,
      );
    } finally {
      taken.close();
    }
    // Had the core stayed open, this start would stop at the data folder's lock or the socket.
    runtime = await start();
    expect((await runtime.core.admin.invoke('status', {})).pending).toBe(0);
  });

  it('detaches on stop, so a core outliving its notifier answers as a process without one', async () => {
    runtime = await start();
    const { attached } = runtime.core;
    expect(attached.channelHealth()).toBeDefined();
    await runtime.stop();
    runtime = undefined;
    expect(attached.channelHealth()).toBeUndefined();
    expect(attached.testChannel('desktop')).toBeUndefined();
  });
});
