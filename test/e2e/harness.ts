import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../support/browser';
import type { GatehouseClient } from '../../clients/sdk/client';
import type { AdminClient } from '../../clients/cli/admin-client';
import { ROOT, TestDaemon } from '../support/daemon';
import {
  startHubWithMachine,
  type HubWithMachine,
  type HubWithMachineOptions,
} from '../support/hub-machine';

export const SCREENSHOTS = join(ROOT, 'test-results/screenshots');

/** A real `gatehouse daemon` process on its own GATEHOUSE_HOME, seen from its dashboard. */
export interface DashboardDaemon {
  daemon: TestDaemon;
  /** The dashboard URL as the daemon printed it, secret included. */
  url: string;
  origin: string;
  secret: string;
  /** An agent connected over the agent socket. */
  agent(name: string, project?: string): Promise<GatehouseClient>;
  /** An admin connection over the socket (the CLI's way in), to read back what the page did. */
  admin(): Promise<AdminClient>;
  /** Calls the dashboard's HTTP API the way the page does. */
  api(
    method: string,
    params?: unknown,
  ): Promise<{ status: number; body: { result?: unknown; error?: unknown } }>;
  /** Closes the agents and admin connections, stops the daemon, removes its directory. */
  stop(): Promise<void>;
}

/** Starts the daemon (waiting for its `ready` line, not a timer) and reads its dashboard URL. */
export async function startDashboardDaemon(
  prepareHome?: (home: string) => void,
): Promise<DashboardDaemon> {
  const daemon = await TestDaemon.start({}, [], prepareHome);
  const closers: { close(): void }[] = [];
  const stop = async () => {
    for (const c of closers) c.close();
    await daemon.stop();
  };
  if (!daemon.dashboardUrl) {
    await stop();
    throw new Error(`the daemon printed no dashboard URL:\n${daemon.output}`);
  }
  const parsed = new URL(daemon.dashboardUrl);
  const secret = new URLSearchParams(parsed.hash.slice(1)).get('secret') ?? '';
  const origin = `${parsed.protocol}//${parsed.host}`;
  return {
    daemon,
    url: daemon.dashboardUrl,
    origin,
    secret,
    async agent(name, project) {
      const client = await daemon.agent({ agent: name, ...(project ? { project } : {}) });
      closers.push(client);
      return client;
    },
    async admin() {
      const client = await daemon.admin();
      closers.push(client);
      return client;
    },
    async api(method, params = {}) {
      const response = await fetch(`${origin}/api/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Gatehouse-Secret': secret },
        body: JSON.stringify(params),
      });
      return {
        status: response.status,
        body: (await response.json()) as { result?: unknown; error?: unknown },
      };
    },
    stop,
  };
}

/**
 * One chromium and one dashboard daemon for a whole test file: started before its first test,
 * always stopped after its last. Read `browser` and `daemon` inside tests (they are set then).
 */
export function dashboardForFile(prepareHome?: (home: string) => void): {
  readonly browser: Browser;
  readonly daemon: DashboardDaemon;
} {
  const ctx = {} as { browser: Browser; daemon: DashboardDaemon };
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    ctx.browser = await launchBrowser();
    ctx.daemon = await startDashboardDaemon(prepareHome);
  });
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.daemon?.stop();
  });
  return ctx;
}

/**
 * The team dashboard's stage (test/support/hub-machine.ts) for a whole test file: a hub, a
 * daemon joined to it, a browser signed in on the hub; started before the first test, always
 * stopped after the last. Read its fields inside tests (they are set then).
 */
export function hubWithMachineForFile(o: HubWithMachineOptions): Readonly<HubWithMachine> {
  const stage: Partial<HubWithMachine> = {};
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    Object.assign(stage, await startHubWithMachine(o));
  }, 240_000);
  afterAll(async () => {
    await stage.stop?.();
  });
  return stage as HubWithMachine;
}
