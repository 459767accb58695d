import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { GatehouseClient } from '../../clients/sdk/client';
import { launchBrowser, openPage, type WatchedPage } from './browser';
import { TestDaemon } from './daemon';
import { joinHub, TestHub } from './hub';
import { signInHub } from './hub-page';
import { Teardown } from './teardown';

/** A real daemon (no dashboard of its own) joined to a hub, its admin connection and one agent. */
export interface JoinedMachine {
  daemon: TestDaemon;
  admin: AdminClient;
  agent: GatehouseClient;
}

/**
 * Starts a daemon, joins it to `hub` as `machine` (waiting until the link is up), then
 * connects an admin and an agent on `project`; `teardown` gets what stops each of them.
 */
export async function startJoinedMachine(
  hub: TestHub,
  o: { machine: string; agent: string; project: string },
  teardown: Teardown,
): Promise<JoinedMachine> {
  const daemon = await TestDaemon.start({}, ['--no-dashboard']);
  teardown.add(() => daemon.stop());
  await joinHub(daemon, hub, o.machine);
  const admin = await daemon.admin();
  teardown.add(() => admin.close());
  const agent = await daemon.agent({ agent: o.agent, project: o.project });
  teardown.add(() => agent.close());
  return { daemon, admin, agent };
}

/** A hub, a machine joined to it, and a browser signed in on the hub as the approver `ann`. */
export interface HubWithMachine extends JoinedMachine {
  hub: TestHub;
  browser: Browser;
  watched: WatchedPage;
  /** The agent's project folder. */
  project: string;
  /** Stops all of it, the browser first and the hub last. */
  stop(): Promise<void>;
}

export interface HubWithMachineOptions {
  /** The agent's name. */
  agent: string;
  /** The agent's project; by default a new temporary folder, removed at stop. */
  project?: string;
  /** Writes the files the test needs into the temporary project folder. */
  prepareProject?: (dir: string) => void;
}

/**
 * The team dashboard's stage: a real hub (embedded database), a real daemon joined to it as
 * `laptop` with an admin connection and an agent, and a real chromium page signed in on the
 * hub as `ann`, an approver. Whatever started before a failing step is stopped again.
 */
export async function startHubWithMachine(o: HubWithMachineOptions): Promise<HubWithMachine> {
  const teardown = new Teardown();
  try {
    const project = o.project ?? temporaryProject(teardown, o.prepareProject);
    const hub = await TestHub.start();
    teardown.add(() => hub.stop());
    const machine = await startJoinedMachine(
      hub,
      { machine: 'laptop', agent: o.agent, project },
      teardown,
    );
    const browser = await launchBrowser();
    teardown.add(() => browser.close());
    const watched = await openPage(browser);
    teardown.add(() => watched.context.close().catch(() => undefined));
    await signInHub(watched, await hub.signInLink('ann', 'approver'));
    return { hub, ...machine, browser, watched, project, stop: () => teardown.run() };
  } catch (error) {
    await teardown.run().catch(() => undefined);
    throw error;
  }
}

function temporaryProject(teardown: Teardown, prepare?: (dir: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-hub-project-'));
  teardown.add(() => rmSync(dir, { recursive: true, force: true }));
  prepare?.(dir);
  return dir;
}
