import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { ruleOfferId } from '../../../main/hub-link/rule-offers';
import { RuleOffers } from '../../../shared/hub-rule-offers';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { waitForPending, type TestDaemon } from '../../support/daemon';
import { startRecordingService, type ServiceHit } from '../../support/recording-service';
import type { TestHub } from '../../support/hub';
import { startPostgresHubStage, type PostgresHubStage } from '../../support/hub-postgres-stage';
import { hubTablesText } from '../../support/hub-tables';
import { startWebhookReceiver } from '../../support/notify-receivers';
import { startNtfyServer } from '../../support/ntfy-server';

const run = promisify(execFile);

/** The secrets the agent writes in its commands; none of them may reach the hub. */
const GH = 'ghp_TEAMLEAKTEAMLEAKTEAMLEAK0123456789';
const GH2 = 'ghp_OTHERLEAKOTHERLEAKOTHERLEAK987654';
const AWS = 'wJalrXUtnFEMIK7MDENGbPxRfiCYTEAMLEAKEY';
const AWS_ID = 'AKIATEAMLEAKEXAMPLE';
const DB_PASSWORD = 'pwTEAMLEAK9';
const OPAQUE = 'opaqueTEAMLEAK42value';
const LEAK = /TEAMLEAK|OTHERLEAK/;

const updatedInputOf = (stdout: string): Record<string, unknown> | undefined =>
  (JSON.parse(stdout.trim()) as { hookSpecificOutput: { updatedInput?: Record<string, unknown> } })
    .hookSpecificOutput.updatedInput;

/**
 * A secret the agent writes in a command never leaves the machine for the team hub: the hub's
 * copy of the request, its rule offers, its pages and its notifications are masked, while the
 * machine keeps the real command. The hub's approvals still work on it: an "always" saves the
 * machine's own unmasked rule (the offer's id is the digest of it), and an edit made on the
 * hub's masked text gets the secrets back on the machine, as a local edit does, or is refused.
 * A real daemon and the real Claude Code hook process, a real hub on a real PostgreSQL whose
 * every table is scanned, its real webhook and ntfy channels, and the agent's commands really
 * run (bash, curl) against a local service that records the credentials it got.
 */
describe("secrets in a request's command stay on the machine", () => {
  const webhookSecret = 'hub-webhook-secret';
  let stage: PostgresHubStage;
  let databaseUrl: string;
  let hub: TestHub;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let ann: string;
  let project: string;
  let webhook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let ntfy: Awaited<ReturnType<typeof startNtfyServer>>;
  let service: Awaited<ReturnType<typeof startRecordingService>> | undefined;
  let serviceUrl: string;
  let hits: ServiceHit[] = [];

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'gatehouse-hub-mask-'));
    service = await startRecordingService();
    serviceUrl = service.url;
    hits = service.hits;
    webhook = await startWebhookReceiver(webhookSecret);
    ntfy = await startNtfyServer();
    stage = await startPostgresHubStage({ database: 'masked' });
    ({ databaseUrl, hub, daemon, admin } = stage);
    const notify = join(project, 'notify.json');
    writeFileSync(
      notify,
      JSON.stringify({
        webhook: { enabled: true, url: webhook.url, secret: webhookSecret, minUrgency: 'low' },
        ntfy: { enabled: true, server: ntfy.url, topic: 'team-gates', minUrgency: 'low' },
      }),
    );
    expect(await hub.cli(['notify', '--config', notify])).toMatchObject({ code: 0 });
    ann = await hub.person('ann');
  }, 120_000);
  afterAll(async () => {
    await stage?.stop();
    await webhook?.close();
    await ntfy?.close();
    service?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  /** The hub's view of a request once the machine published it with this status. */
  function onHub(requestId: string, status = 'pending'): Promise<Record<string, unknown>> {
    return hub.requestWhen(
      requestId,
      ann,
      (r) => (r.body.request as { status?: string } | undefined)?.status === status,
    );
  }

  /** Runs the agent's command as Claude Code would once allowed: bash, in the project. */
  const runCommand = (command: string) => run('bash', ['-c', command], { cwd: project });

  /** A Bash call the real hook files, waiting for a person's answer. */
  async function bashCall(command: string, id: string) {
    const answer = runClaudeHook(
      daemon.env,
      preToolUse('Bash', { command }, { cwd: project, id, session: 'cc-mask' }),
    );
    const filed = await waitForPending(admin, (r) => r.dedupeKey === `claude-code:${id}`);
    return { answer, requestId: filed.requestId };
  }

  const decideOnHub = (requestId: string, body: Record<string, unknown>) =>
    hub.api('POST', '/api/decide', {
      token: ann,
      body: { machine: 'laptop', requestId, decision: 'approve', ...body },
    });

  it('an edit made on the hub runs with the secrets the machine kept; one that moves them is refused', async () => {
    const command = [
      `export AWS_ACCESS_KEY_ID=${AWS_ID}`,
      `export AWS_SECRET_ACCESS_KEY=${AWS}`,
      `export GH_TOKEN=${GH}`,
      `curl -sf --oauth2-bearer "$GH_TOKEN" -d "aws=$AWS_SECRET_ACCESS_KEY" ${serviceUrl}/user`,
    ].join('\n');
    const { answer, requestId } = await bashCall(command, 'tu-hub-edit');
    const view = await onHub(requestId);
    expect(JSON.stringify(view)).not.toMatch(LEAK);
    const shown = (view.request as { command: string }).command;
    expect(shown).toBe(
      [
        'export AWS_ACCESS_KEY_ID=AKIA…[masked]',
        'export AWS_SECRET_ACCESS_KEY=wJal…[masked]',
        'export GH_TOKEN=ghp_…[masked]',
        `curl -sf --oauth2-bearer "$GH_TOKEN" -d "aws=$AWS_SECRET_ACCESS_KEY" ${serviceUrl}/user`,
      ].join('\n'),
    );

    // The placeholder put into the line that talks to the service: the machine refuses it,
    // as it would a local edit, and the agent still waits.
    const moved = shown.replace(`${serviceUrl}/user`, `${serviceUrl}/user?t=ghp_…[masked]`);
    const refused = await decideOnHub(requestId, {
      terms: { edit: { input: { command: moved } } },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    await expect
      .poll(async () => {
        const { events } = await admin.call('audit.query', {
          type: 'hub.decision_refused',
          requestId,
        });
        return events.map((e) => String(e.data.detail)).join('\n');
      })
      .toMatch(/masked value .* in command line 4/);
    expect((await admin.call('request.get', { requestId })).request.status).toBe('pending');
    expect(hits).toHaveLength(0);

    // The edit of another part, the secrets' lines kept as shown: the call runs with them.
    await admin.call('decide', { requestId, decision: 'deny', reason: 'asked again below' });
    await answer;
    const again = await bashCall(command, 'tu-hub-edit-2');
    const shownAgain = (
      (await onHub(again.requestId)).request as {
        context: { toolInput: { command: string } };
      }
    ).context.toolInput.command;
    expect(shownAgain).toBe(shown);
    const edited = shownAgain.replace(`${serviceUrl}/user`, `${serviceUrl}/user/repos`);
    const ok = await decideOnHub(again.requestId, {
      terms: { edit: { input: { command: edited } } },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const ran = updatedInputOf((await again.answer).stdout);
    expect(ran).toEqual({ command: command.replace('/user', '/user/repos') });
    await runCommand(String(ran!.command));
    expect(hits).toEqual([
      {
        path: '/user/repos',
        authorization: `Bearer ${GH}`,
        body: `aws=${AWS}`,
      },
    ]);
    await onHub(again.requestId, 'approved');
  }, 120_000);

  it('"always" from the hub saves the machine\'s unmasked narrowest rule: the same call then runs unasked', async () => {
    const command = `curl -sf -X POST --oauth2-bearer ${GH} ${serviceUrl}/deploy`;
    const { answer, requestId } = await bashCall(command, 'tu-hub-always');
    const view = await onHub(requestId);
    const offers = RuleOffers.parse(view.offers);
    const preview = await admin.call('rules.preview', { requestId });
    // The offers the hub shows are the machine's own, masked; each id is the digest of the
    // machine's real rule.
    expect(offers.map((o) => o.id)).toEqual(
      [preview.draft, ...preview.widenings].slice(0, offers.length).map(ruleOfferId),
    );
    expect(preview.draft.command).toBe(command);
    expect(offers[0]!.draft.command).toBe(
      `curl -sf -X POST --oauth2-bearer ghp_…[masked] ${serviceUrl}/deploy`,
    );
    expect(JSON.stringify(offers)).not.toMatch(LEAK);

    const decided = await decideOnHub(requestId, { scope: 'always' });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect((await answer).decision).toBe('allow');
    await runCommand(command);
    expect(hits.at(-1)).toEqual({ path: '/deploy', authorization: `Bearer ${GH}`, body: '' });
    const rules = (await admin.call('rules.list', {})).rules;
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ ...preview.draft, tier: 'auto', source: 'decision' });
    expect(rules[0]!.command).toBe(command);
    await onHub(requestId, 'approved');

    // A shadow team rule over the action: the call the saved rule lets through is recorded
    // for the hub, with its command as the example (masked).
    const added = await hub.cli([
      'policy',
      'add',
      preview.draft.action,
      '--tier',
      'ask',
      '--shadow',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect((await hub.cli(['policy', 'publish'])).code).toBe(0);
    await expect
      .poll(async () => (await admin.call('status', {})).teamPolicy?.version ?? 0, {
        timeout: 20_000,
      })
      .toBe(1);

    // The same call again: the saved rule lets it through; another token still asks.
    const same = await runClaudeHook(
      daemon.env,
      preToolUse('Bash', { command }, { cwd: project, id: 'tu-hub-always-2', session: 'cc-mask' }),
    );
    expect(same.decision).toBe('allow');
    let examples = '';
    await expect
      .poll(
        async () => {
          examples = (await hub.cli(['policy', 'shadow-report', '--json'])).stdout;
          return examples;
        },
        { timeout: 20_000 },
      )
      .toContain('--oauth2-bearer ghp_…[masked]');
    expect(examples).not.toMatch(LEAK);
    const other = await bashCall(command.replace(GH, GH2), 'tu-hub-always-3');
    await onHub(other.requestId);
    await admin.call('decide', { requestId: other.requestId, decision: 'deny', reason: 'done' });
    expect((await other.answer).decision).toBe('deny');
  }, 120_000);

  it('a command cannot hide what it runs inside what looks like a URL password', async () => {
    // Written as a password, run as a command substitution: masked whole, the person on the
    // hub and on their phone would approve `printf %s https://app:…[masked]@db`.
    const hidden = '$(touch${IFS}ran-hidden)';
    const command = `printf %s https://app:${hidden}@db.internal`;
    const { answer, requestId } = await bashCall(command, 'tu-hub-hidden');
    const view = await onHub(requestId);
    expect((view.request as { command?: string }).command).toBe(command);
    await ntfy.until(() => ntfy.messages.some((m) => m.message.includes(hidden)), 20_000);
    const decided = await decideOnHub(requestId, {});
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect((await answer).decision).toBe('allow');
    // What the person saw is what runs.
    await runCommand(command);
    expect(existsSync(join(project, 'ran-hidden'))).toBe(true);
  }, 60_000);

  it('a command cannot hide a line it runs inside what looks like a private key', async () => {
    // `bin/run` is base64 characters only: after a BEGIN line, taken for a key's body, the
    // person would approve `: -----BEGIN PRIVATE KEY----- …[masked]` and the script would run.
    const command = [
      ': -----BEGIN OPENSSH PRIVATE KEY-----',
      script('run1', 'ran-key-line'),
      ': -----END OPENSSH PRIVATE KEY-----',
    ].join('\n');
    await approvedOnHubAsShown(command, 'tu-hub-key-line', 'bin/run1');
    expect(existsSync(join(project, 'ran-key-line'))).toBe(true);
  }, 60_000);

  it('a command cannot hide a line it runs after what looks like a credential', async () => {
    // Taken for the value of `token:` on the line before, or of a `--password-command`, the
    // script's name was masked: `bin/…[masked]`.
    const command = `echo token:\n${script('run2', 'ran-after-token')} --password-command=${script('run3', 'ran-option')}`;
    await approvedOnHubAsShown(command, 'tu-hub-after-token', 'bin/run2');
    expect(existsSync(join(project, 'ran-after-token'))).toBe(true);
  }, 60_000);

  /** A script in the project's bin/ (base64 characters only) that touches `marker`. */
  function script(name: string, marker: string): string {
    mkdirSync(join(project, 'bin'), { recursive: true });
    writeFileSync(join(project, 'bin', name), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    return `bin/${name}`;
  }

  /**
   * Files the command through the real hook, checks the hub's view and its ntfy message show
   * it whole, approves it on the hub, and runs it as the agent would.
   */
  async function approvedOnHubAsShown(command: string, id: string, part: string) {
    const { answer, requestId } = await bashCall(command, id);
    const view = await onHub(requestId);
    const request = view.request as { command?: string; context?: { toolInput?: unknown } };
    expect(request.command).toBe(command);
    expect(request.context?.toolInput).toMatchObject({ command });
    await ntfy.until(() => ntfy.messages.some((m) => m.message.includes(part)), 20_000);
    const decided = await decideOnHub(requestId, {});
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect((await answer).decision).toBe('allow');
    // What the person saw is what runs.
    await runCommand(command);
  }

  it('no table of the hub database, and nothing its channels sent, holds a secret', async () => {
    // A call that waits until the channels have sent it (the positive control: what they
    // sent is what is scanned).
    const command = [
      `export AWS_SECRET_ACCESS_KEY=${AWS}`,
      `psql postgres://app:${DB_PASSWORD}@db.internal/shop -c 'select 1'`,
      `curl -sf -H "X-Upstream: Bearer ${OPAQUE}" --oauth2-bearer ${GH} ${serviceUrl}/x`,
    ].join('\n');
    const waiting = await bashCall(command, 'tu-hub-notify');
    await expect
      .poll(() => webhook.hits.filter((h) => h.body.includes(waiting.requestId)).length, {
        timeout: 20_000,
      })
      .toBe(1);
    await ntfy.until(() => ntfy.messages.some((m) => m.message.includes('[masked]')), 20_000);
    await admin.call('decide', { requestId: waiting.requestId, decision: 'deny', reason: 'done' });
    await waiting.answer;
    await onHub(waiting.requestId, 'denied');
    const { tables, text: everything } = await hubTablesText(databaseUrl);
    expect(tables).toBeGreaterThan(10);
    // The requests are there, masked; the secrets are nowhere.
    expect(everything).toContain('ghp_…[masked]');
    expect(everything).toContain('wJal…[masked]');
    expect(everything).toContain('postgres://app:…[masked]@db.internal/shop');
    expect(everything).toContain('Bearer opaq…[masked]');
    expect(everything).not.toMatch(LEAK);
    const sent = JSON.stringify({ webhook: webhook.hits, ntfy: ntfy.messages });
    expect(sent).toContain('[masked]');
    expect(sent).not.toMatch(LEAK);
  }, 60_000);
});
