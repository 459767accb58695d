import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { TestDaemon } from './daemon';
import { stopChild } from './stop-child';

const run = promisify(execFile);

/** A notification as `dunstctl history` reports it. */
export interface DunstNotification {
  appname: string;
  summary: string;
  body: string;
  /** 0 for notices that stay until dismissed (dunst's default for `critical`). */
  timeout: number;
}

type DunstField = { data: unknown };

function firstLine(child: ChildProcess, stream: NodeJS.ReadableStream, what: string) {
  return new Promise<string>((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString('utf8');
      const newline = buffer.indexOf('\n');
      if (newline >= 0) {
        stream.off('data', onData);
        resolve(buffer.slice(0, newline).trim());
      }
    };
    stream.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready`)));
    child.once('error', reject);
  });
}

/**
 * A private desktop for notification tests: Xvfb on a display it picks itself (-displayfd),
 * a D-Bus session bus of its own, and dunst as the notification server on both. `env` holds
 * DISPLAY and DBUS_SESSION_BUS_ADDRESS for anything that should notify into it.
 */
export async function startNotificationDesktop() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-notify-desktop-'));
  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    for (const child of children.reverse()) await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const xvfb = spawn(
      'Xvfb',
      ['-displayfd', '3', '-screen', '0', '640x480x24', '-nolisten', 'tcp'],
      {
        stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      },
    );
    children.push(xvfb);
    const display = `:${await firstLine(xvfb, xvfb.stdio[3] as NodeJS.ReadableStream, 'Xvfb')}`;

    const dbus = spawn(
      'dbus-daemon',
      ['--session', '--nofork', '--nopidfile', '--print-address=1'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    children.push(dbus);
    const bus = await firstLine(dbus, dbus.stdout!, 'dbus-daemon');

    const env = { ...process.env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: bus };
    // A config of our own: no user config leaks in, and nothing expires while a test reads.
    const config = join(dir, 'dunstrc');
    // dunst's context menu runs its `dmenu` command with one line per action on stdin
    // ("#Approve (summary) [id,approve]") and invokes the line it prints: this script prints
    // the first line matching the pattern in `choice`, as a person picking it would.
    const menu = join(dir, 'menu.sh');
    const choice = join(dir, 'choice');
    const menuSeen = join(dir, 'menu-input');
    // The input is written aside and renamed, so the test never reads the file between the
    // shell creating it and printf filling it (a full CI run once read an empty menu).
    writeFileSync(
      menu,
      `#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' "$input" > '${menuSeen}.part'\n` +
        `mv '${menuSeen}.part' '${menuSeen}'\n` +
        `printf '%s\\n' "$input" | grep -F -- "$(cat '${choice}')" | head -n 1\n`,
    );
    chmodSync(menu, 0o700);
    writeFileSync(
      config,
      `[global]\n    history_length = 100\n    dmenu = ${menu}\n[urgency_low]\n    timeout = 0\n` +
        '[urgency_normal]\n    timeout = 0\n[urgency_critical]\n    timeout = 0\n',
    );
    const dunst = spawn('dunst', ['-config', config], { env, stdio: 'ignore' });
    children.push(dunst);

    const dunstctl = (...args: string[]) => run('dunstctl', args, { env, timeout: 10_000 });
    // dunst owns org.freedesktop.Notifications once dunstctl gets an answer.
    for (let i = 0; ; i++) {
      try {
        await dunstctl('count', 'displayed');
        break;
      } catch (error) {
        if (dunst.exitCode !== null || i > 100) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    /** Every notification shown so far (closes the displayed ones so they reach the history). */
    const notifications = async (): Promise<DunstNotification[]> => {
      await dunstctl('close-all');
      const { stdout } = await dunstctl('history');
      const parsed = JSON.parse(stdout) as { data: Record<string, DunstField>[][] };
      return (parsed.data[0] ?? []).map((n) => ({
        appname: String(n.appname?.data ?? ''),
        summary: String(n.summary?.data ?? ''),
        body: String(n.body?.data ?? ''),
        timeout: Number(n.timeout?.data ?? -1),
      }));
    };

    /** How many notices are on screen now. */
    const displayed = async (): Promise<number> =>
      Number((await dunstctl('count', 'displayed')).stdout.trim());

    /**
     * Presses a button as a person would through dunst's context menu: the entry whose line
     * contains `text` (e.g. `[12,approve]` or `Approve (builder wants to deploy)`).
     * Returns the menu dunst offered.
     */
    const press = async (text: string): Promise<string[]> => {
      writeFileSync(choice, text);
      rmSync(menuSeen, { force: true });
      await dunstctl('context');
      // dunst runs the menu on its own after answering: wait for the script to have read it.
      for (let i = 0; !existsSync(menuSeen); i++) {
        if (i > 250) throw new Error('dunst did not open its context menu');
        await new Promise((r) => setTimeout(r, 20));
      }
      return readFileSync(menuSeen, 'utf8').split('\n').filter(Boolean);
    };

    /** Clicks the body of the newest notice: dunst invokes its default action. */
    const clickBody = async (): Promise<void> => {
      await dunstctl('action', '0');
    };

    return { env, display, bus, notifications, displayed, press, clickBody, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type NotificationDesktop = Awaited<ReturnType<typeof startNotificationDesktop>>;

/**
 * A private notification desktop and a real daemon that shows its notices there, for the
 * test file that calls it: started before its first test, stopped after its last. The
 * getters hand them to the tests.
 */
export function desktopDaemonPerFile(): {
  desktop: () => NotificationDesktop;
  daemon: () => TestDaemon;
} {
  let desktop: NotificationDesktop | undefined;
  let daemon: TestDaemon | undefined;
  beforeAll(async () => {
    desktop = await startNotificationDesktop();
    daemon = await TestDaemon.start({
      DISPLAY: desktop.display,
      DBUS_SESSION_BUS_ADDRESS: desktop.bus,
    });
  });
  afterAll(async () => {
    await daemon?.stop();
    await desktop?.stop();
  });
  return { desktop: () => desktop!, daemon: () => daemon! };
}
