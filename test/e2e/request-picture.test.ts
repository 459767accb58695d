import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../support/browser';
import { waitForPending } from '../support/daemon';
import { dashboardForFile, SCREENSHOTS } from './harness';
import { withPicture } from '../support/with-picture';

// A request's picture on the dashboard (1280 px) and the phone page (390 px): the diff of an
// Edit (side by side), the commits of a push and its full diff (`v`), a deploy manifest, an
// email preview; the phone's decision buttons stay on the first screen. The screenshots,
// looked at, are copied to docs/images/ (request-*-1280.png, phone-*-390.png).

const ctx = dashboardForFile();
const gitEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ann Agent',
  GIT_AUTHOR_EMAIL: 'ann@example.com',
  GIT_COMMITTER_NAME: 'Ann Agent',
  GIT_COMMITTER_EMAIL: 'ann@example.com',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: gitEnv });

let root: string;
let project: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'gh-e2e-picture-'));
  project = join(root, 'shop');
  const bare = join(root, 'shop.git');
  git(root, 'init', '--quiet', '--bare', '-b', 'main', bare);
  git(root, 'init', '--quiet', '-b', 'main', project);
  mkdirSync(join(project, 'src'));
  writeFileSync(
    join(project, 'src', 'payment.ts'),
    [
      "import { charge } from './gateway';",
      '',
      'export function pay(cents: number, card: string) {',
      '  if (cents <= 0) throw new Error("nothing to pay");',
      '  return charge(cents, card);',
      '}',
      '',
    ].join('\n'),
  );
  mkdirSync(join(project, 'k8s'));
  writeFileSync(
    join(project, 'k8s', 'prod.yaml'),
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: payments',
      '  namespace: prod',
      'spec:',
      '  replicas: 6',
      '  template:',
      '    spec:',
      '      containers:',
      '        - name: api',
      '          image: registry.example.com/payments:2.4.0',
      '          env:',
      '            - name: STRIPE_API_KEY',
      '              value: sk-live-0123456789abcdefghijklmn',
      '',
    ].join('\n'),
  );
  git(project, 'add', '.');
  git(project, 'commit', '--quiet', '-m', 'Payment module');
  git(project, 'remote', 'add', 'origin', bare);
  git(project, 'push', '--quiet', 'origin', 'main');
  for (const [file, subject] of [
    ['src/refund.ts', 'Add refunds'],
    ['src/receipt.ts', 'Email a receipt after each payment'],
    ['README.md', 'Document the payment flow'],
  ] as const) {
    writeFileSync(join(project, file), `// ${subject}\nexport {};\n`);
    git(project, 'add', '.');
    git(project, 'commit', '--quiet', '-m', subject);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('request picture in the browser', () => {
  it('the dashboard shows the diff and the commit list; the phone page the diffstat and commits under its buttons', async () => {
    const admin = await ctx.daemon.admin();
    const agent = await ctx.daemon.agent('claude-code', project);
    const gate = (tool: string, input: Record<string, unknown>, id: string) =>
      agent.gate({
        client: 'claude-code',
        event: 'PreToolUse',
        tool,
        input,
        toolUseId: id,
        cwd: project,
        wait: false,
      });
    await gate(
      'Edit',
      {
        file_path: 'src/payment.ts',
        old_string: '  return charge(cents, card);',
        new_string:
          '  const fee = Math.round(cents * 0.029) + 30;\n  return charge(cents + fee, card);',
      },
      'tu-edit',
    );
    const edit = await withPicture(admin, (await waitForPending(admin, 'edit_file')).requestId);
    await gate('Bash', { command: 'git push --force origin main' }, 'tu-push');
    const push = await withPicture(admin, (await waitForPending(admin, 'git_push')).requestId);
    await gate('Bash', { command: 'kubectl apply -f k8s/prod.yaml' }, 'tu-deploy');
    const deploy = await withPicture(
      admin,
      (await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-deploy')).requestId,
    );
    await gate(
      'mcp__gmail__send_email',
      {
        to: ['finance@example.com', 'cfo@example.com'],
        subject: 'Card fees change on Monday',
        body: 'Hello,\n\nFrom Monday each card payment carries a 2.9% + 30c fee.\nThe change ships with release 2.4.\n\nThanks,\nthe payments agent',
      },
      'tu-mail',
    );
    const mail = await withPicture(
      admin,
      (await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-mail')).requestId,
    );

    // The dashboard at 1280 px: the Edit's diff, then the push's commits.
    const wide = await openPage(ctx.browser, { width: 1280, height: 860 });
    await wide.page.goto(ctx.daemon.url);
    await wide.page.locator('[data-testid=connection-status][data-state=live]').waitFor();
    await wide.page
      .locator(`[data-testid=pending-item]`)
      .filter({ hasText: 'Edit' })
      .first()
      .getByTestId('pending-open')
      .click();
    // Side by side on a wide screen: the old line on the left, the new ones on the right.
    const diff = wide.page.getByTestId('picture-diff-split');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('  return charge(cents + fee, card);');
    expect(await wide.page.getByTestId('picture-diff').isVisible()).toBe(false);
    expect(await wide.page.getByTestId('picture-file').textContent()).toContain('+2 −1');
    await wide.page
      .getByTestId('request-detail')
      .screenshot({ path: join(SCREENSHOTS, 'request-diff-1280.png') });
    await wide.page
      .locator(`[data-testid=pending-item]`)
      .filter({ hasText: 'git push' })
      .first()
      .getByTestId('pending-open')
      .click();
    const commits = wide.page.getByTestId('picture-commits');
    await commits.waitFor();
    expect(await commits.locator('li').allTextContents()).toEqual([
      expect.stringContaining('Document the payment flow'),
      expect.stringContaining('Email a receipt after each payment'),
      expect.stringContaining('Add refunds'),
    ]);
    expect(await wide.page.getByTestId('picture-push').textContent()).toContain('force');
    // `v`: the full diff of the push, computed when asked.
    await wide.page.keyboard.press('v');
    const full = wide.page.getByTestId('full-diff');
    await full.waitFor({ state: 'attached' });
    expect(await full.textContent()).toContain('+// Email a receipt after each payment');
    // Side by side, a git header stays whole across both sides (not cut into a context line).
    const split = wide.page.getByTestId('picture-diff-split').last();
    expect(await split.textContent()).toContain('new file mode 100644');
    expect(await split.textContent()).not.toMatch(/(^|[^n])ew file mode/);
    await wide.page
      .getByTestId('request-detail')
      .screenshot({ path: join(SCREENSHOTS, 'request-push-1280.png') });
    await wide.page.keyboard.press('v');
    await full.waitFor({ state: 'detached' });

    const seen: Record<string, string> = {};
    for (const [text, testId, name] of [
      ['kubectl apply', 'picture-applied', 'request-manifest-1280.png'],
      ['send_email', 'picture-message', 'request-email-1280.png'],
    ] as const) {
      await wide.page
        .locator(`[data-testid=pending-item]`)
        .filter({ hasText: text })
        .first()
        .getByTestId('pending-open')
        .click();
      await wide.page.getByTestId(testId).waitFor();
      seen[testId] = (await wide.page.getByTestId(testId).textContent()) ?? '';
      await wide.page.getByTestId('request-detail').screenshot({ path: join(SCREENSHOTS, name) });
    }
    // The manifest as kubectl reads it, its secret masked; the email's recipients and body.
    expect(seen['picture-applied']).toContain('image: registry.example.com/payments:2.4.0');
    expect(seen['picture-applied']).not.toContain('sk-live-0123456789');
    expect(seen['picture-message']).toContain('finance@example.com, cfo@example.com');
    expect(seen['picture-message']).toContain('Card fees change on Monday');
    expect(wide.problems).toEqual([]);
    await wide.context.close();

    // The phone page at 390×844: the buttons on the first screen, the picture below them.
    for (const [request, name] of [
      [push, 'phone-push-390.png'],
      [edit, 'phone-diff-390.png'],
      [deploy, 'phone-manifest-390.png'],
      [mail, 'phone-email-390.png'],
    ] as const) {
      const { url } = await admin.call('request.link', {
        requestId: request.requestId,
        channel: 'sms',
      });
      const phone = await openPage(ctx.browser, { width: 390, height: 844 });
      await phone.page.goto(url);
      await phone.page.getByTestId('phone-picture').waitFor();
      for (const id of ['phone-approve', 'phone-deny']) {
        const box = await phone.page.getByTestId(id).boundingBox();
        expect(box!.y + box!.height, id).toBeLessThanOrEqual(844);
      }
      const shown = (await phone.page.getByTestId('phone-picture').textContent()) ?? '';
      if (request === push) {
        expect(shown).toContain('3 commits');
        expect(shown).toContain('Add refunds');
        expect(shown).toContain('force');
      } else if (request === deploy) {
        expect(shown).toContain('kind: Deployment');
        expect(shown).not.toContain('sk-live-0123456789');
      } else if (request === mail) {
        expect(shown).toContain('To: finance@example.com, cfo@example.com');
        expect(shown).toContain('Subject: Card fees change on Monday');
      } else {
        expect(shown).toMatch(/\+2\s+−1/);
        expect(shown).toContain('+  return charge(cents + fee, card);');
      }
      const width = await phone.page.evaluate('document.documentElement.scrollWidth');
      expect(width).toBeLessThanOrEqual(390);
      await phone.page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
      expect(phone.problems).toEqual([]);
      await phone.context.close();
    }
  }, 60_000);
});
