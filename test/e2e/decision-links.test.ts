import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDecisionToken, newNonce } from '../../main/remote/decision-token';
import { linkKeyPath } from '../../main/remote/decision-links';
import { launchBrowser, openPage } from '../support/browser';
import type { AdminClient } from '../../clients/cli/admin-client';
import { freePort } from '../support/free-port';
import { TestDaemon, runCli, waitForPending } from '../support/daemon';
import { SCREENSHOTS, dashboardForFile } from './harness';

const ctx = dashboardForFile();

/** The page's form fields, read from its HTML as a browser would submit them. */
function formOf(html: string): { form: string } {
  const form = /name="form" value="([^"]+)"/.exec(html)?.[1];
  if (!form) throw new Error(`no form token in the page:\n${html.slice(0, 400)}`);
  return { form };
}

async function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

describe('decision links: the phone page', () => {
  it('at 390×844 shows the decision buttons without scrolling, even for a long request; times are local', async () => {
    const agent = await ctx.daemon.agent('long-winded', '/work/shop');
    const admin = await ctx.daemon.admin();
    const answer = agent.request({
      action: 'run_command',
      description: `Rewrite the deployment scripts: ${'and then some more of them '.repeat(20)}`,
      rationale: 'the old ones are broken '.repeat(10),
      command: `./deploy.sh ${'--flag '.repeat(60)}`,
      target: 'production',
      paths: Array.from({ length: 12 }, (_, i) => `/work/shop/scripts/step-${i}.sh`),
      urgency: 'high',
      wait: true,
      timeoutMs: 60_000,
    });
    const requestId = await waitForPendingId(admin, 'run_command');
    const { url } = await admin.call('request.link', { requestId, channel: 'sms' });
    const { context, page, problems } = await openPage(ctx.browser, { width: 390, height: 844 });
    await page.goto(url);
    await page.getByTestId('phone-deny').waitFor();
    for (const id of ['phone-approve', 'phone-approve-session', 'phone-deny']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box, id).not.toBeNull();
      // Wholly on the first screen.
      expect(box!.y, id).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, id).toBeLessThanOrEqual(844);
    }
    expect(await page.evaluate('window.scrollY')).toBe(0);
    // The full request is still on the page, below the buttons.
    expect(await page.getByTestId('phone-what').textContent()).toContain('and then some more');
    // Times in the one format, in the machine's zone, named — not UTC by default.
    const asked = (await page.getByTestId('phone-age').textContent()) ?? '';
    expect(asked).toMatch(/ago \((\d{4}-\d\d-\d\d \d\d:\d\d|\d\d:\d\d:\d\d) \S+\)$/);
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-page-390x844.png') });
    await admin.call('decide', { requestId, decision: 'deny', reason: 'test done' });
    await answer;
    expect(problems).toEqual([]);
    await context.close();
  });

  it('at 375×812 approves a waiting agent, which gets approved; the channel is recorded', async () => {
    const agent = await ctx.daemon.agent('phone-agent', '/work/shop');
    const admin = await ctx.daemon.admin();
    const answer = agent.request({
      action: 'git_push',
      description: 'Push the release branch',
      rationale: 'the release is tagged and tested',
      command: 'git push origin release/2.0',
      target: 'origin',
      urgency: 'high',
      wait: true,
      timeoutMs: 60_000,
    });
    const requestId = await waitForPendingId(admin, 'git_push');
    const { url } = await admin.call('request.link', { requestId, channel: 'email' });
    expect(url.startsWith(`${ctx.daemon.origin}/d/`)).toBe(true);

    const { context, page, problems } = await openPage(ctx.browser, { width: 375, height: 812 });
    await page.goto(url);
    await page.getByTestId('phone-approve').waitFor();
    // As a person reads it: the page's whitespace collapsed.
    const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    for (const shown of [
      'Push the release branch',
      'the release is tagged and tested',
      'git push origin release/2.0',
      'Target origin',
      'phone-agent',
      '/work/shop',
      'default:git_push',
      'high',
      'An agent is blocked waiting for this answer',
    ])
      expect(text).toContain(shown);
    // Readable at 375 px: nothing wider than the viewport.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-page-375.png'), fullPage: true });

    await page.getByTestId('phone-approve').click();
    expect(await answer).toMatchObject({ requestId, status: 'approved', decidedBy: 'human' });
    await page.getByTestId('phone-decided').waitFor();
    expect(await page.getByTestId('phone-decided').textContent()).toMatch(
      // The one time format of every surface, in the machine's zone, named.
      /^Approved once by a person via link:email at (\d{4}-\d\d-\d\d \d\d:\d\d|\d\d:\d\d:\d\d) \S+\.$/,
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-page-decided.png'), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();

    const [approved] = (await admin.call('audit.query', { type: 'request.approved', requestId }))
      .events;
    expect(approved!.data).toMatchObject({ via: 'link:email', scope: 'once' });
    const show = await ctx.daemon.daemon.cli(['show', requestId]);
    expect(show.stdout).toContain('via link:email');
  });

  it('GET alone never decides; a second use, a forged and an expired token are refused and audited', async () => {
    const agent = await ctx.daemon.agent('refusals');
    const admin = await ctx.daemon.admin();
    const q = await agent.request({
      action: 'send_email',
      description: 'Email the customer',
      wait: false,
    });
    const { url } = await admin.call('request.link', { requestId: q.requestId, channel: 'sms' });

    // A mail scanner, a link preview: GET and HEAD, as often as they like.
    for (const method of ['GET', 'HEAD', 'GET']) {
      const response = await fetch(url, { method });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
    expect((await admin.call('request.get', { requestId: q.requestId })).request.status).toBe(
      'pending',
    );

    // A POST without the page's form token decides nothing.
    const noForm = await postForm(url, { decision: 'approve' });
    expect(noForm.status).toBe(403);
    expect((await admin.call('request.get', { requestId: q.requestId })).request.status).toBe(
      'pending',
    );

    const fields = formOf(await (await fetch(url)).text());
    const first = await postForm(url, { ...fields, decision: 'deny', reason: 'not today' });
    expect(first.status).toBe(303);
    const decided = (await admin.call('request.get', { requestId: q.requestId })).request;
    expect(decided).toMatchObject({
      status: 'denied',
      reason: 'not today',
      decidedVia: 'link:sms',
    });

    const second = await postForm(url, { ...fields, decision: 'approve' });
    expect(second.status).toBe(409);
    expect(await second.text()).toContain('already used');
    expect((await admin.call('request.get', { requestId: q.requestId })).request.status).toBe(
      'denied',
    );
    // The page of a decided request says who decided, how and when.
    const after = await (await fetch(url)).text();
    expect(after).toMatch(/Denied by a person via link:sms at [\d: -]+ \S+: not today\./);

    // Forged: the same claims under a key that is not this machine's.
    const q2 = await agent.request({ action: 'send_email', description: 'again', wait: false });
    const claims = {
      requestId: q2.requestId,
      decisions: ['approve' as const],
      expiresAt: Date.now() + 3_600_000,
      nonce: newNonce(),
      channel: 'webhook' as const,
    };
    const forged = signDecisionToken('not-the-key-'.repeat(4), claims);
    const forgedAct = await fetch(`${ctx.daemon.origin}/d/${forged}/act`, { method: 'POST' });
    expect(forgedAct.status).toBe(403);
    const forgedPage = await fetch(`${ctx.daemon.origin}/d/${forged}`);
    expect(forgedPage.status).toBe(403);
    expect(await forgedPage.text()).not.toContain('again');

    // Expired: signed with the real key, an hour ago.
    const key = readFileSync(linkKeyPath(ctx.daemon.daemon.home), 'utf8').trim();
    const expired = signDecisionToken(key, {
      ...claims,
      nonce: newNonce(),
      expiresAt: Date.now() - 3_600_000,
    });
    const expiredAct = await fetch(`${ctx.daemon.origin}/d/${expired}/act`, { method: 'POST' });
    expect(expiredAct.status).toBe(410);
    // The same token, unexpired, is a working button: the real key, one decision.
    const good = signDecisionToken(key, { ...claims, nonce: newNonce() });
    expect((await admin.call('request.get', { requestId: q2.requestId })).request.status).toBe(
      'pending',
    );
    const pressed = await fetch(`${ctx.daemon.origin}/d/${good}/act`, { method: 'POST' });
    expect(pressed.status).toBe(200);
    expect(await pressed.json()).toMatchObject({
      result: { status: 'approved', decidedVia: 'link:webhook' },
    });

    const refused = (await admin.call('audit.query', { type: 'link.refused' })).events;
    const reasons = refused.map((e) => [e.data?.reason, e.data?.channel]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        ['bad_form', 'sms'],
        ['replayed', 'sms'],
        ['forged', 'webhook'],
        ['expired', 'webhook'],
      ]),
    );
    const forgedEntry = refused.find((e) => e.data?.reason === 'forged')!;
    expect(forgedEntry.data).toMatchObject({ verified: false, transport: 'local' });
  });

  it('a decision over the dashboard API cannot claim another channel', async () => {
    const agent = await ctx.daemon.agent('claims');
    const q = await agent.request({ action: 'send_email', description: 'claim', wait: false });
    const r = await ctx.daemon.api('decide', {
      requestId: q.requestId,
      decision: 'approve',
      via: 'link:email',
    });
    expect(r.status).toBe(200);
    const admin = await ctx.daemon.admin();
    expect((await admin.call('request.get', { requestId: q.requestId })).request.decidedVia).toBe(
      'dashboard',
    );
  });
});

describe('decision links: the dashboard signs a browser in', () => {
  let browser: Browser;
  let daemon: TestDaemon;
  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await TestDaemon.start({ GATEHOUSE_DASHBOARD_PORT: String(await freePort()) });
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('opening the printed URL once lets notification links open the request, also after a restart; rotating signs out', async () => {
    const origin = new URL(daemon.dashboardUrl!).origin;
    const { context, page, problems } = await openPage(browser);
    await page.goto(daemon.dashboardUrl!);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    const cookies = await context.cookies(origin);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookies[0]!.expires).toBeGreaterThan(Date.now() / 1000 + 300 * 86_400);

    const agent = await daemon.agent({ agent: 'notified' });
    const first = await agent.request({ action: 'git_push', description: 'first', wait: false });
    // The link a notification carries: no secret.
    await page.goto(`${origin}/#request=${first.requestId}`);
    await page
      .locator(`[data-testid=request-detail][data-request-id="${first.requestId}"]`)
      .waitFor();

    agent.close();
    await daemon.signal('SIGTERM');
    await daemon.launch();
    expect(new URL(daemon.dashboardUrl!).origin).toBe(origin);
    const again = await daemon.agent({ agent: 'notified' });
    const second = await again.request({ action: 'git_push', description: 'second', wait: false });
    const fresh = await context.newPage();
    await fresh.goto(`${origin}/#request=${second.requestId}`);
    await fresh
      .locator(`[data-testid=request-detail][data-request-id="${second.requestId}"]`)
      .waitFor();
    await fresh.screenshot({ path: join(SCREENSHOTS, 'notification-link-after-restart.png') });
    again.close();

    const rotated = await daemon.cli(['dashboard', '--rotate-secret']);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout.trim()).toMatch(new RegExp(`^${origin}/#secret=`));
    expect(rotated.stdout.trim()).not.toBe(daemon.dashboardUrl);
    const signedOut = await context.newPage();
    await signedOut.goto(`${origin}/#request=${second.requestId}`);
    await signedOut.getByTestId('missing-secret').waitFor();
    expect(problems.filter((p) => !p.includes('/api/'))).toEqual([]);
    await context.close();
  });

  it('a taken dashboard port is a one-line error naming the setting', async () => {
    const port = new URL(daemon.dashboardUrl!).port;
    // A second daemon (its own home and socket) on the same port.
    const second = await runSecondDaemon(port);
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      `gatehouse: dashboard port ${port} is in use: set dashboard.port to a free port (gatehouse config set dashboard.port N; 0 picks any), or start with GATEHOUSE_DASHBOARD_PORT=N`,
    ]);
  });
});

async function runSecondDaemon(port: string) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-clash-'));
  try {
    return await runCli(
      {
        ...process.env,
        GATEHOUSE_HOME: join(dir, 'home'),
        GATEHOUSE_SOCKET: join(dir, 'run', 'a.sock'),
        GATEHOUSE_DASHBOARD_PORT: port,
      },
      ['daemon'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitForPendingId(admin: AdminClient, action: string): Promise<string> {
  return (await waitForPending(admin, action)).requestId;
}

describe('decision links: the full dashboard on the remote listener (dashboard.remote.dashboard)', () => {
  let browser: Browser;
  let daemon: TestDaemon;
  let remoteOrigin: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    daemon = await TestDaemon.start();
    const port = await freePort();
    remoteOrigin = `http://127.0.0.1:${port}`;
    for (const [key, value] of [
      ['dashboard.remote.enabled', 'true'],
      ['dashboard.remote.port', String(port)],
      ['dashboard.remote.publicUrl', `${remoteOrigin}/`],
      ['dashboard.remote.dashboard', 'true'],
    ] as [string, string][])
      expect((await daemon.cli(['config', 'set', key, value])).code).toBe(0);
    await daemon.signal('SIGTERM');
    await daemon.launch();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('signs in through the public URL and opens a request there; cross-origin calls stay refused', async () => {
    expect(daemon.output).toContain('(pages and dashboard)');
    const secret = new URL(daemon.dashboardUrl!).hash;
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${remoteOrigin}/${secret}`);
    await page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    const agent = await daemon.agent({ agent: 'remote-dash' });
    const q = await agent.request({ action: 'git_push', description: 'via remote', wait: false });
    await page.goto(`${remoteOrigin}/#request=${q.requestId}`);
    await page.locator(`[data-testid=request-detail][data-request-id="${q.requestId}"]`).waitFor();
    expect(problems.filter((p) => !p.includes('/api/'))).toEqual([]);
    const [cookie] = await context.cookies(remoteOrigin);
    // Another site's page posting with the cookie: refused by the dashboard's origin check.
    const crossSite = await fetch(`${remoteOrigin}/api/decide`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: 'https://evil.example',
        Cookie: `${cookie!.name}=${cookie!.value}`,
      },
      body: JSON.stringify({ requestId: q.requestId, decision: 'approve' }),
    });
    expect(crossSite.status).toBe(403);
    // Without a cookie or secret: unauthorized.
    const anonymous = await fetch(`${remoteOrigin}/api/status`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    agent.close();
    await context.close();
  });
});
