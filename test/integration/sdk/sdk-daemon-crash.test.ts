/**
 * An SDK agent whose daemon is killed (`kill -9`) while it waits for a person: the
 * README's example (top-level `await gh.request(…)` in an ES module) must settle, approved
 * after a reconnect or denied GATEHOUSE_UNREACHABLE once its wait ends, and never exit with
 * Node's code 13 (a top-level await left unsettled when nothing kept the process alive).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { ROOT, TestDaemon } from '../../support/daemon';

/** The README's example as printed, importing the built SDK instead of the installed package. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'clients', 'sdk', 'README.md'), 'utf8');
  const block = /```js example\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('clients/sdk/README.md has no ```js example block');
  const sdk = pathToFileURL(join(ROOT, 'dist', 'sdk', 'index.js')).href;
  return block[1]!.replace("'@gatehouse/sdk'", `'${sdk}'`);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** When the example printed its answer (performance.now()). */
  answeredAt?: number | undefined;
}

let dir: string;
let d: TestDaemon;
let admin: AdminClient | undefined;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-sdk-crash-'));
  writeFileSync(join(dir, 'example.mjs'), readmeExample());
  d = await TestDaemon.start({}, ['--no-dashboard']);
});
afterEach(async () => {
  admin?.close();
  admin = undefined;
  await d.stop();
  rmSync(dir, { recursive: true, force: true });
});

function runExample(): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['example.mjs'], {
      cwd: dir,
      env: { ...d.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let answeredAt: number | undefined;
    child.stdout.on('data', (b: Buffer) => {
      answeredAt ??= performance.now();
      stdout += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr, answeredAt }));
  });
}

/** The example's request, once filed and its agent connected. */
async function filedRequest(): Promise<string> {
  admin = await d.admin();
  let id = '';
  await expect
    .poll(
      async () => {
        const { requests } = await admin!.call('pending.list', {});
        id = requests[0]?.requestId ?? '';
        return requests[0]?.agentConnected === true;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  admin.close();
  admin = undefined;
  return id;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the README's example when its daemon is killed", () => {
  it('restarted after 1 s: the request is found again and a later approval reaches it', async () => {
    const example = runExample();
    const id = await filedRequest();
    await d.kill9();
    await sleep(1000);
    await d.launch(['--no-dashboard']);
    // The example reconnects, says hello with its session key and sends its request again.
    const again = await filedRequest();
    expect(again).toBe(id);
    admin = await d.admin();
    await admin.call('decide', { requestId: id, decision: 'approve' });
    const r = await example;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('approved: pushing\n');
  });

  it('restarted after 10 s: denied GATEHOUSE_UNREACHABLE when its wait ends, exit code 0', async () => {
    const example = runExample();
    await filedRequest();
    await d.kill9();
    const killedAt = performance.now();
    await sleep(10_000);
    await d.launch(['--no-dashboard']);
    const r = await example;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^not pushing: denied GATEHOUSE_UNREACHABLE: /);
    // It answered when its wait (5 s by default) ended, long before the restart; `end` then
    // waits as long again for the daemon and says the end was not recorded.
    expect(r.answeredAt! - killedAt).toBeGreaterThan(4_500);
    expect(r.answeredAt! - killedAt).toBeLessThan(8_000);
  });
});
