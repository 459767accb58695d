// Writes the README's pictures, docs/images/dashboard.png and docs/images/phone-page.png, from
// the real thing: a real `gatehouse daemon` on a temporary GATEHOUSE_HOME, agents that file
// requests over its socket with the built SDK, and headless chromium (playwright-core, as the
// e2e tests drive it) on the dashboard and on one request's decision link.
//
//   node scripts/build.mjs && node scripts/screenshots.mjs
//
// GATEHOUSE_CHROMIUM names another chromium than /usr/bin/chromium.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist/cli/gatehouse.js');
const images = join(root, 'docs/images');
/** Each picture must stay small enough to keep in git. */
const MAX_BYTES = 200 * 1024;

if (!existsSync(cli) || !existsSync(join(root, 'dist/sdk/index.js'))) {
  console.error('screenshots: dist/ is missing: run `node scripts/build.mjs` first');
  process.exit(1);
}
const { GatehouseClient } = await import(join(root, 'dist/sdk/index.js'));

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-screenshots-'));
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GATEHOUSE_'))),
  GATEHOUSE_HOME: join(dir, 'home'),
  GATEHOUSE_SOCKET: join(dir, 'run', 'agent.sock'),
  GATEHOUSE_DASHBOARD_PORT: '0',
};

/** Starts the daemon and resolves with its dashboard URL once it says it is ready. */
function startDaemon() {
  const proc = spawn(process.execPath, [cli, 'daemon'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start:\n${output}`)), 20_000);
    const onData = (b) => {
      output += b.toString();
      const url = /dashboard at (\S+)/.exec(output)?.[1];
      if (url && output.includes('gatehouse: ready')) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`daemon exited with ${code}:\n${output}`)));
  });
  return { proc, ready };
}

const gatehouse = (...args) =>
  execFileSync(process.execPath, [cli, ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** A few agents at work: some calls pass on their own, three wait for a person. */
async function fileRequests() {
  const socketPath = env.GATEHOUSE_SOCKET;
  const agents = [];
  const connect = async (agent, project) => {
    const client = await GatehouseClient.connect({ agent, project, socketPath, reconnect: false });
    agents.push(client);
    return client;
  };
  const release = await connect('release-bot', '/srv/shop');
  const docs = await connect('docs-writer', '/srv/handbook');
  const ops = await connect('claude-code', '/srv/shop');
  await release.classify({ action: 'run_tests', command: 'npm test' });
  await docs.classify({ action: 'read_file', paths: ['/srv/handbook/README.md'] });
  await docs.request({
    action: 'send_email',
    description: 'Email the weekly changelog to the team list',
    rationale: 'the handbook changed in 14 places this week',
    target: 'team@example.com',
    urgency: 'normal',
    wait: false,
  });
  await ops.request({
    action: 'deploy',
    description: 'Apply the new ingress to the production cluster',
    command: 'kubectl apply -f k8s/prod/ingress.yaml',
    target: 'production',
    paths: ['/srv/shop/k8s/prod/ingress.yaml'],
    urgency: 'normal',
    wait: false,
  });
  const push = await release.request({
    action: 'git_push',
    description: 'Push the v2.4.0 release tag to origin',
    rationale: 'the release branch is tagged and its tests pass',
    command: 'git push origin v2.4.0',
    target: 'origin',
    urgency: 'high',
    wait: false,
  });
  return { agents, pushId: push.requestId };
}

async function shoot(browser, url, viewport, file, waitFor) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(waitFor).first().waitFor();
  // Let the last list rows and fonts settle before the picture.
  await page.waitForTimeout(500);
  const path = join(images, file);
  await page.screenshot({ path });
  await context.close();
  const size = statSync(path).size;
  if (size > MAX_BYTES) throw new Error(`${file} is ${size} bytes, over ${MAX_BYTES}`);
  console.log(`screenshots: wrote docs/images/${file} (${Math.round(size / 1024)} KB)`);
}

const daemon = startDaemon();
let browser;
let agents = [];
try {
  const dashboardUrl = await daemon.ready;
  const filed = await fileRequests();
  agents = filed.agents;
  const link = gatehouse('link', filed.pushId).trim().split('\n').pop();
  mkdirSync(images, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.GATEHOUSE_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  await shoot(
    browser,
    dashboardUrl,
    { width: 1280, height: 640 },
    'dashboard.png',
    '[data-testid=connection-status][data-state=live]',
  );
  await shoot(
    browser,
    link,
    { width: 390, height: 844 },
    'phone-page.png',
    '[data-testid=phone-deny]',
  );
} finally {
  for (const agent of agents) agent.close();
  await browser?.close();
  daemon.proc.kill('SIGTERM');
  await new Promise((resolve) => {
    if (daemon.proc.exitCode !== null) resolve();
    else daemon.proc.once('exit', resolve);
  });
  rmSync(dir, { recursive: true, force: true });
}
