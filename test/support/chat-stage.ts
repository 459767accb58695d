import { expect } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import type { GatehouseClient } from '../../clients/sdk/client';
import type { Urgency } from '../../shared/domain';
import { TestDaemon } from './daemon';

/**
 * What every chat app's ways-back test stands on (Telegram, Slack, Discord, ntfy): a real
 * daemon with no desktop bus, its settings set through `gatehouse config set`, agents that
 * file requests which block on the answer, the audit read back, and everything closed after.
 */
export class ChatStage {
  readonly agents: GatehouseClient[] = [];

  private constructor(
    readonly daemon: TestDaemon,
    readonly admin: AdminClient,
  ) {}

  /** Starts the daemon with the desktop off and these settings, in order. */
  static async start(settings: readonly (readonly [string, string])[]): Promise<ChatStage> {
    const daemon = await TestDaemon.start({
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
    });
    for (const [key, value] of [['notifications.channels.desktop.enabled', 'false'], ...settings])
      await configure(daemon, key!, value!);
    return new ChatStage(daemon, await daemon.admin());
  }

  config(key: string, value: string): Promise<void> {
    return configure(this.daemon, key, value);
  }

  /** An agent connected to the daemon, closed when the stage stops. */
  async agent(o: Parameters<TestDaemon['agent']>[0]): Promise<GatehouseClient> {
    const agent = await this.daemon.agent(o);
    this.agents.push(agent);
    return agent;
  }

  /**
   * Files a request whose agent blocks on the answer (up to a minute), once the agent is
   * connected; `answer` settles when it is decided (wrapped: awaiting it here would wait for
   * the decision).
   */
  async fileWaiting(
    agentName: string,
    action: string,
    urgency: Urgency = 'high',
    command?: string,
  ) {
    const agent = await this.agent({ agent: agentName });
    const answer = agent.request({
      action,
      ...(command !== undefined ? { command } : {}),
      description: `${action} for the test`,
      urgency,
      wait: true,
      timeoutMs: 60_000,
    });
    return { answer };
  }

  /** The audit entries of a type, each with its request id beside its data. */
  async audits(type: string): Promise<Record<string, unknown>[]> {
    const { events } = await this.admin.call('audit.query', { type });
    return events.map((e) => ({ requestId: e.requestId, ...e.data }));
  }

  /**
   * Quiet hours all day hold a normal request (`heldAction`: its message is not posted) while
   * a high one (`fileLoud`, resolved once its message is posted) still gets through; once
   * quiet hours end the held one is posted, not lost. `posted(action)` says whether a message
   * names the action, `until` waits on the app's test server.
   */
  async expectQuietHoursHold(
    heldAction: string,
    posted: (action: string) => boolean,
    until: (ready: () => boolean) => Promise<void>,
    fileLoud?: () => Promise<unknown>,
  ): Promise<void> {
    await this.config('notifications.quietHours.enabled', 'true');
    await this.config('notifications.quietHours.start', '00:00');
    await this.config('notifications.quietHours.end', '23:59');
    try {
      const held = await this.fileWaiting(`quiet-${heldAction}`, heldAction, 'normal');
      held.answer.catch(() => undefined);
      await fileLoud?.();
      await new Promise((r) => setTimeout(r, 500));
      expect(posted(heldAction)).toBe(false);
      await this.config('notifications.quietHours.enabled', 'false');
      await until(() => posted(heldAction));
    } finally {
      await this.config('notifications.quietHours.enabled', 'false');
    }
  }

  async stop(): Promise<void> {
    for (const a of this.agents) a.close();
    this.admin.close();
    await this.daemon.stop();
  }
}

async function configure(daemon: TestDaemon, key: string, value: string): Promise<void> {
  const r = await daemon.cli(['config', 'set', key, value]);
  expect(r.code, `${r.stderr}\n${daemon.output}`).toBe(0);
}
