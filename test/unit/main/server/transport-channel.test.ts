import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withTransportChannel } from '../../../../main/server/transport-channel';
import { DashboardSessions, dashboardSecretPath } from '../../../../main/server/dashboard-sessions';

describe('the channel a decision records is set by its transport', () => {
  it.each([
    ['dashboard', undefined, 'dashboard'],
    ['dashboard', 'link:email', 'dashboard'],
    ['dashboard', 'cli', 'dashboard'],
    ['desktop', 'dashboard', 'desktop'],
    ['socket', 'cli', 'cli'],
    ['socket', 'mcp', 'mcp'],
    ['socket', undefined, 'socket'],
    ['socket', 'link:ntfy', 'socket'],
    ['socket', 'desktop', 'socket'],
  ] as const)('%s with a claimed %s records %s', (transport, claimed, recorded) => {
    for (const method of ['decide', 'decideMany'])
      expect(
        withTransportChannel(transport, method, {
          requestId: 'r',
          decision: 'approve',
          ...(claimed ? { via: claimed } : {}),
        }),
      ).toMatchObject({ via: recorded });
  });

  it('leaves methods without a channel alone', () => {
    const params = { requestId: 'r' };
    expect(withTransportChannel('dashboard', 'request.get', params)).toBe(params);
    expect(withTransportChannel('dashboard', 'decide', null)).toBeNull();
  });
});

describe('dashboard sessions', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gatehouse-sessions-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cookieOf = (setCookie: string) => setCookie.split(';')[0]!;

  it('issue HttpOnly, SameSite=Strict, long-lived cookies that only the secret could sign', () => {
    const sessions = new DashboardSessions(dashboardSecretPath(dir));
    const set = sessions.newSessionCookie(7417, false);
    expect(set).toMatch(
      /^gatehouse_session_7417=[\w-]+\.[\w-]{43}; Path=\/; Max-Age=34560000; HttpOnly; SameSite=Strict$/,
    );
    expect(statSync(dashboardSecretPath(dir)).mode & 0o777).toBe(0o600);
    const cookie = cookieOf(set);
    expect(sessions.hasSession(`other=1; ${cookie}`, 7417)).toBe(true);
    // Another port's cookie is another instance's.
    expect(sessions.hasSession(cookie.replace('_7417', '_7418'), 7418)).toBe(false);
    const [name, value] = cookie.split('=') as [string, string];
    const [id, mac] = value.split('.') as [string, string];
    expect(sessions.hasSession(`${name}=${id}x.${mac}`, 7417)).toBe(false);
    expect(sessions.hasSession(`${name}=${id}.${mac.slice(0, -1)}A`, 7417)).toBe(mac.endsWith('A'));
    expect(sessions.hasSession(`${name}=${id}`, 7417)).toBe(false);
    expect(sessions.hasSession(undefined, 7417)).toBe(false);
  });

  it('are all revoked when the secret is rotated, also by another process', () => {
    const daemonSide = new DashboardSessions(dashboardSecretPath(dir));
    const cookie = cookieOf(daemonSide.newSessionCookie(7417, false));
    const before = daemonSide.secret();
    const cliSide = new DashboardSessions(dashboardSecretPath(dir));
    const after = cliSide.rotate();
    expect(after).not.toBe(before);
    expect(daemonSide.secret()).toBe(after);
    expect(daemonSide.hasSession(cookie, 7417)).toBe(false);
    expect(daemonSide.secretMatches(before)).toBe(false);
    expect(daemonSide.secretMatches(after)).toBe(true);
    expect(statSync(dashboardSecretPath(dir)).mode & 0o777).toBe(0o600);
  });
});
