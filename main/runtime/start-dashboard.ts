import type { Core } from '../core';
import { ListenerSettingError } from '../remote/start-remote';
import { DashboardServer } from '../server/dashboard-server';
import { dashboardSecretPath } from '../../shared/node/dashboard-secret';
import { DashboardSessions } from '../server/dashboard-sessions';
import { channelBoundAdmin } from '../server/transport-channel';

/**
 * The loopback dashboard over the core's admin service, listening and attached to the core
 * (its URL in `status` and in decision links). A port in use is a setting to change, said
 * in one line.
 */
export async function startDashboard(
  core: Core,
  home: string,
  o: { port: (setting: number) => number; staticDir: string },
): Promise<{ url(): string; origin: string; stop(): Promise<void> }> {
  const port = o.port(core.settings.get().dashboard.port);
  const dashboard = new DashboardServer({
    // Every decision through the dashboard's API is recorded as `dashboard`.
    admin: channelBoundAdmin(core.admin, 'dashboard'),
    staticDir: o.staticDir,
    host: '127.0.0.1',
    port,
    // The kept secret: the printed URL signs a browser in for good (cookie).
    sessions: new DashboardSessions(dashboardSecretPath(home)),
    pages: core.links.pages('local'),
  });
  const address = await dashboard.start().catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE'
      ? new ListenerSettingError(
          `dashboard port ${port} is in use: set dashboard.port to a free port (gatehouse config set dashboard.port N; 0 picks any), or start with GATEHOUSE_DASHBOARD_PORT=N`,
        )
      : error;
  });
  const detach = core.attached.attachDashboard(dashboard);
  return {
    // The dashboard's URL as of now: it follows a rotation of its secret.
    url: () => dashboard.url(),
    origin: address.origin,
    async stop() {
      detach();
      await dashboard.close();
    },
  };
}
