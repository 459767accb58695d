import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectPolicyFile } from '../../../main/engine/policy/project-policy';
import { CLI, ROOT, runCli, TestDaemon } from '../../support/daemon';
import { docPages } from '../../support/doc-links';

const run = promisify(execFile);

/**
 * A fenced code block of the README or a docs page: the page (relative to the root), its info
 * string, its text, the line it starts on.
 */
interface Block {
  file: string;
  lang: string;
  text: string;
  line: number;
}

function pageBlocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  let open: { lang: string; line: number; body: string[] } | undefined;
  lines.forEach((l, i) => {
    if (!l.startsWith('```')) return open?.body.push(l);
    if (open) {
      blocks.push({ file, lang: open.lang, text: open.body.join('\n'), line: open.line });
      open = undefined;
    } else open = { lang: l.slice(3).trim(), line: i + 1, body: [] };
  });
  return blocks;
}

/** The blocks of every page a newcomer reads: README, CONTRIBUTING.md, docs/, bench/README.md. */
function readmeBlocks(): Block[] {
  return docPages(ROOT).flatMap((page) => pageBlocks(relative(ROOT, page)));
}

/**
 * Each block of the README and the docs pages, found by its first line. The ones that can run here run below; the
 * others are listed with why not. A block in neither list fails the test: every new block
 * is either run or explained.
 */
const CANNOT_RUN: Record<string, string> = {
  'npm ci && npm start':
    'installs the dependencies (npm ci) and starts the app for good; the suite runs on the installed tree and starts daemons itself',
  'scripts/install-test-deps.sh && ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci && npm test':
    'installs Debian packages with sudo and runs the whole suite, of which this test is a part',
  'claude -p "…" --mcp-config gatehouse-mcp.json \\':
    'needs Claude Code and a model behind it; test/integration/agents/claude-code-headless.test.ts runs the real CLI against a scripted model',
  '# on the desktop, where Gatehouse runs': 'needs a second machine reachable over SSH',
  'gatehouse config set dashboard.remote.enabled true\ngatehouse config set dashboard.remote.bind "$(tailscale ip -4)"':
    'needs Tailscale (`tailscale ip -4`) on this machine',
  'agent ──socket──▶ server/ (NDJSON JSON-RPC, zod) ──▶ engine/ ──▶ store/ (SQLite, WAL)':
    'a drawing of the architecture, not code',
  'npx vitest run test/unit/docs/links.test.ts test/integration/docs/readme-blocks.test.ts':
    'runs vitest, of which this test is a part',
  'npm run typecheck':
    'typecheck, lint and format the whole tree; CI (.ci/run) runs the first two on every change',
  'gatehouse hub                                   # embedded PostgreSQL in $GATEHOUSE_HOME/hub/data':
    'starts a hub for good (and a PostgreSQL server elsewhere); test/integration/hub/hub-embedded.test.ts and hub-replicas.test.ts run both forms',
  'gatehouse hub invite --machine laptop':
    'needs a running hub; the hub tests invite through the CLI (test/support/hub.ts)',
  'gatehouse hub join http://hub.example:7230 CODE':
    'needs a hub at that address; test/integration/hub/hub-decisions.test.ts joins a real daemon to a real hub',
  'gatehouse hub user add ann --role approver':
    'needs a running hub; the hub tests add people through the CLI (test/support/hub.ts) and test/integration/hub/hub-attacks.test.ts checks their roles',
  '{\n  "display_information": { "name": "Gatehouse" }':
    'a Slack app manifest, pasted into Slack; test/unit/docs/slack-manifest.test.ts checks it',
  'gatehouse hub --bind 0.0.0.0 --tls-cert /etc/gatehouse/hub.crt --tls-key /etc/gatehouse/hub.key':
    'needs a certificate at those paths and starts a hub for good; test/integration/hub/hub-tls.test.ts starts one with a certificate made by openssl',
  'gatehouse config set hub.publishProjects \'["/work/team"]\'':
    'changes the settings of the daemon it runs against; test/integration/hub/hub-publish-filters.test.ts sets both keys on a joined daemon and checks what reaches the hub',
  "cat > notify.json <<'JSON'":
    'needs a running hub (and the receivers it names); test/integration/hub/hub-notify.test.ts sets the channels with gatehouse hub notify --config against a real webhook receiver and ntfy server',
  'gatehouse hub webhook-allow                                  # show the list':
    'needs a running hub; test/integration/hub/hub-webhook-allow-cli.test.ts runs show, add and remove against a real hub',
  'gatehouse hub sso set --issuer https://idp.example.com':
    'needs an OpenID provider at that address; test/integration/hub/hub-oidc.test.ts runs every sso command against a real provider (oidc-provider) and a real hub',
  '# on a joined machine\ngatehouse audit verify --hub':
    'needs a joined machine and a running hub; test/integration/hub/hub-audit.test.ts runs both verifies against a real hub on PostgreSQL, with chains rewritten by hand',
  'gatehouse hub group add ops':
    'needs a running hub; test/integration/hub/hub-quorum.test.ts makes groups and rules (and invites with --owner) through the CLI',
  'gatehouse hub policy add git_push --tier ask --note "pushes need a person"':
    'needs a running hub and joined machines; test/integration/hub/hub-team-policy.test.ts runs add, publish, shadow-report and enforce against a real hub on PostgreSQL',
  "$ gatehouse --hub https://hub.example approve REQUEST_ID --scope always --pattern 'kubectl:*'":
    "needs a hub at that address; test/integration/hub/hub-rule-offers.test.ts runs it against a real hub and checks the refusal lists the machine's offers",
  'gatehouse hub login https://hub.example':
    'needs a hub at that address; test/integration/hub/hub-cli.test.ts logs in and runs every --hub command against a real hub',
  '> {"jsonrpc":"2.0","id":1,"method":"hello"':
    'an annotated exchange (> sent, < received), not a script; test/unit/shared/protocol/protocol-doc.test.ts checks the field tables around it against the schemas',
};
const RUN = [
  "import { GatehouseClient } from '@gatehouse/sdk';",
  'S=$(gatehouse socket-path)',
  '{',
  '{\n  "permissions": {',
  '# on the desktop',
  'gatehouse config set notifications.channels.webhook.enabled true',
  "import { GatehouseClient, guardLLMCall } from '@gatehouse/sdk';",
  'gatehouse config set dashboard.remote.enabled true\ngatehouse config set dashboard.remote.bind 127.0.0.1',
  '[rules]',
  'gatehouse prune --dry-run',
  'gatehouse hook claude-code --install',
  'gatehouse audit verify',
];
const startsWith = (b: Block, head: string) => b.text.startsWith(head);
const find = (head: string): Block => {
  const found = readmeBlocks().filter((b) => startsWith(b, head));
  if (found.length !== 1) throw new Error(`${found.length} doc blocks start with ${head}`);
  return found[0]!;
};

/** Runs a doc page's shell block in bash, `gatehouse` being the built CLI, as a person would. */
async function runShell(block: Block, env: NodeJS.ProcessEnv): Promise<string> {
  const script = `gatehouse() { "${process.execPath}" "${CLI}" "$@"; }\nset -e\n${block.text}\n`;
  const { stdout } = await run('bash', ['-c', script], { env });
  return stdout;
}

/** The SDK's specifier and the names a doc block imports from it. */
function sdkImports(block: Block): { from: string; names: string[] }[] {
  return [...block.text.matchAll(/import \{([^}]+)\} from '([^']+)'/g)].map((m) => ({
    from: m[2]!,
    names: m[1]!.split(',').map((n) => n.trim()),
  }));
}

describe('the README and docs: every code block that can run here runs, and shows what happens', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterAll(async () => {
    await d.stop();
  });

  it('every block is either run by this test or listed with why it cannot run here', () => {
    for (const block of readmeBlocks()) {
      const ran = RUN.some((head) => startsWith(block, head) || block.text === head);
      const excused = Object.keys(CANNOT_RUN).some((head) => startsWith(block, head));
      expect(ran || excused, `${block.file}:${block.line} (${block.text.split('\n')[0]})`).toBe(
        true,
      );
    }
  });

  it('the SDK imports resolve: the package name and every imported name', async () => {
    const sdkPackage = JSON.parse(readFileSync(join(ROOT, 'clients/sdk/package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
    };
    const sdk = (await import('../../../clients/sdk/index')) as Record<string, unknown>;
    for (const head of [RUN[0]!, RUN[6]!])
      for (const { from, names } of sdkImports(find(head))) {
        expect(from).toBe(sdkPackage.name);
        for (const name of names) expect(typeof sdk[name], `${name} from ${from}`).toBe('function');
      }
    // The SDK's README says what it depends on.
    const sdkReadme = readFileSync(join(ROOT, 'clients/sdk/README.md'), 'utf8');
    for (const dep of Object.keys(sdkPackage.dependencies)) expect(sdkReadme).toContain(dep);
    expect(sdkReadme).not.toContain('no run-time\ndependencies');
  });

  it('the raw socket exchange answers as shown (the nc block, sent by Node)', async () => {
    const block = find(RUN[1]!);
    // netcat-openbsd is named where the block is: `nc -U -q1` is not the traditional nc's.
    const page = readFileSync(join(ROOT, block.file), 'utf8');
    expect(page).toContain('`apt install netcat-openbsd`');
    const sent = [...block.text.matchAll(/echo '([^']+)'/g)].map((m) => m[1]!);
    const shown = [...block.text.matchAll(/^# (\{.*\})$/gm)].map((m) => m[1]!);
    expect(sent).toHaveLength(2);
    const socket = createConnection(d.socketPath);
    let received = '';
    socket.on('data', (b: Buffer) => (received += b.toString()));
    socket.write(sent.map((l) => `${l}\n`).join(''));
    await expect.poll(() => received.split('\n').filter(Boolean).length).toBe(2);
    socket.destroy();
    const lines = received.trim().split('\n');
    shown.forEach((pattern, i) => {
      // "…" in the docs stands for the rest of an object or a value.
      const parts = pattern.split(/,?…/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      expect(lines[i]).toMatch(new RegExp(`^${parts.join('.*')}`));
    });
  });

  it('the MCP server entry names a command that runs', async () => {
    const block = readmeBlocks().find((b) => b.lang === 'json' && b.text.includes('mcpServers'))!;
    const entry = (
      JSON.parse(block.text) as {
        mcpServers: { gatehouse: { command: string; args: string[] } };
      }
    ).mcpServers.gatehouse;
    expect(entry.args[0]).toBe('/path/to/gatehouse/dist/cli/gatehouse.js');
    const help = await runCli(d.env, [entry.args[1]!, '--help']);
    expect(help.code).toBe(0);
  });

  it("the README's gatehouse hook claude-code --install writes exactly the entries the Claude Code page shows", async () => {
    const home = mkdtempSync(join(tmpdir(), 'gatehouse-readme-home-'));
    try {
      // As a person installs it: no GATEHOUSE_* of a test daemon (the installer writes those
      // into the command, for a Gatehouse on another socket).
      await runShell(find(RUN[10]!), { ...process.env, HOME: home });
      const written = readFileSync(join(home, '.claude/settings.json'), 'utf8');
      // The page's paths are an example install: node in /usr/bin, Gatehouse in /opt/gatehouse,
      // HOME /home/you.
      const asShown = written
        .replaceAll(process.execPath, '/usr/bin/node')
        .replaceAll(`${ROOT}/`, '/opt/gatehouse/')
        .replaceAll(home, '/home/you');
      expect(JSON.parse(asShown)).toEqual(JSON.parse(find(RUN[3]!).text));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('the config blocks run against a real daemon and set what they say', async () => {
    await runShell(find(RUN[5]!), d.env);
    await runShell(find(RUN[7]!), d.env);
    const prune = await runShell(find(RUN[9]!), d.env);
    expect(prune).toContain('retention.days = 365');
    const verified = await runShell(find(RUN[11]!), d.env);
    expect(verified).toMatch(/^Audit trail intact: \d+ entries checked/m);
    expect(verified).toContain('"ok": true');
    const get = async (key: string) =>
      JSON.parse((await runCli(d.env, ['config', 'get', key])).stdout) as unknown;
    expect(await get('notifications.channels.webhook.url')).toBe(
      'https://hooks.example.com/gatehouse',
    );
    expect(await get('notifications.channels.webhook.secret')).toMatch(/^[0-9a-f]{64}$/);
    expect(await get('notifications.channels.webhook.minUrgency')).toBe('normal');
    expect(await get('dashboard.remote.publicUrl')).toBe('https://gatehouse.example.net/');
  });

  it('the .gatehouse.toml example is a valid project policy, read as the comments say', () => {
    const raw = parseToml(find(RUN[8]!).text);
    const policy = ProjectPolicyFile.strict().parse(raw);
    expect(policy.rules.allow_without_permission).toEqual(['create_pull_request']);
    expect(policy.policy).toMatchObject({ max_risk: 'medium', allowed_commands: ['npm test'] });
  });
});
