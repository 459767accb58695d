import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, TestDaemon, waitForPending } from '../../support/daemon';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The README's example, exactly as printed there (the block marked `js example`). */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'clients', 'sdk', 'README.md'), 'utf8');
  const block = /```js example\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('clients/sdk/README.md has no ```js example block');
  return block[1]!;
}

/**
 * The SDK as its own package: packed with `npm pack`, installed into an empty folder with
 * `npm install <tarball>`, and the README's example run there against a real daemon, up and
 * down. Nothing of the Gatehouse checkout is on that folder's module path.
 */
describe('the SDK package', () => {
  let dir: string;
  let project: string;
  let d: TestDaemon | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-sdk-pkg-'));
    project = join(dir, 'my-agent');
    await run(npm, ['pack', join(ROOT, 'clients', 'sdk'), '--pack-destination', dir], {
      cwd: ROOT,
      env: { ...process.env, GATEHOUSE_QUIET_BUILD: '1' },
    });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBe('gatehouse-sdk-0.1.0.tgz');
    await run('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'my-agent', version: '1.0.0', type: 'module', private: true }),
    );
    await run(
      npm,
      ['install', join(dir, tarball!), '--no-audit', '--no-fund', '--prefer-offline'],
      { cwd: project },
    );
    writeFileSync(join(project, 'example.mjs'), readmeExample());
  }, 240_000);

  afterAll(async () => {
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const runExample = (env: NodeJS.ProcessEnv) =>
    run(process.execPath, ['example.mjs'], { cwd: project, env: { ...process.env, ...env } });

  it('ships only the bundle, its declarations and the README', () => {
    const pkg = JSON.parse(
      readFileSync(join(project, 'node_modules', '@gatehouse', 'sdk', 'package.json'), 'utf8'),
    );
    expect(pkg.name).toBe('@gatehouse/sdk');
    const files = readdirSync(join(project, 'node_modules', '@gatehouse', 'sdk', 'dist'));
    expect(files.sort()).toEqual(['index.d.ts', 'index.js']);
    const bundle = readFileSync(
      join(project, 'node_modules', '@gatehouse', 'sdk', 'dist', 'index.js'),
      'utf8',
    );
    // Shared code is inside the bundle: no import reaches back into a Gatehouse checkout.
    expect(bundle).not.toMatch(/from ["'](\.\.\/|\/)/);
  });

  it('type-checks as a dependency under moduleResolution nodenext', async () => {
    writeFileSync(
      join(project, 'check.mts'),
      `import { GatehouseClient, requestPermission, type RequestAnswer } from '@gatehouse/sdk';
const gh = await GatehouseClient.connect({ agent: 'typed', reconnectWaitMs: 10 });
const a: RequestAnswer = await gh.request({ action: 'git_push', description: 'x' });
const s: 'approved' | 'denied' | 'timed_out' | 'queued' | 'cancelled' | 'pending' = a.status;
void s;
void requestPermission;
`,
    );
    const checked = run(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--skipLibCheck',
        'false',
        '--typeRoots',
        join(ROOT, 'node_modules', '@types'),
        '--types',
        'node',
        'check.mts',
      ],
      { cwd: project },
    );
    // tsc prints its errors on stdout: show them when the check fails.
    await expect(checked.catch((e: { stdout?: string }) => e.stdout)).resolves.toMatchObject({
      stdout: '',
    });
  }, 180_000);

  it("runs the README's example when Gatehouse is down: not approved, no crash", async () => {
    const { stdout } = await runExample({
      GATEHOUSE_SOCKET: join(dir, 'nowhere', 'agent.sock'),
    });
    expect(stdout).toMatch(/^not pushing: denied GATEHOUSE_UNREACHABLE: .*not approved/);
  });

  it("runs the README's example against a running Gatehouse: it waits for a person", async () => {
    d = await TestDaemon.start();
    const example = runExample({ GATEHOUSE_SOCKET: d.socketPath, GATEHOUSE_HOME: d.home });
    const admin = await d.admin();
    const pending = await waitForPending(admin, 'git_push');
    expect(pending).toMatchObject({ agent: 'release-bot', urgency: 'high' });
    await admin.call('decide', { requestId: pending.requestId, decision: 'approve' });
    admin.close();
    expect((await example).stdout).toBe('approved: pushing\n');
  });
});
