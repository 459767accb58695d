import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';

/**
 * `gatehouse report` through the real CLI against a real daemon, on what the demo leaves
 * behind: a session with logs, usage, a pending push, a timed-out email and a tripped
 * stagnation breaker.
 */
describe('gatehouse report', () => {
  let d: TestDaemon;
  let out: string;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    out = mkdtempSync(join(tmpdir(), 'gatehouse-report-'));
    const demo = await d.cli(['demo', '--agents', '1', '--wait-ms', '300']);
    expect(demo.code).toBe(0);
  });
  afterAll(async () => {
    await d?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  it('writes the Markdown report of a session to a file', async () => {
    const admin = await d.admin();
    const { sessions } = await admin.call('sessions.list', {});
    admin.close();
    const sessionId = sessions[0]!.sessionId;
    const file = join(out, 'report.md');
    const r = await d.cli(['report', sessionId, '--out', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Wrote the report of ${sessionId} to ${file}`);
    const md = readFileSync(file, 'utf8');
    expect(md).toMatch(new RegExp(`^# Session report: demo-agent \\(${sessionId}\\)`));
    // The demo is stopped by its stagnation breaker: not a completed session.
    expect(md).toContain('- **Status:** aborted');
    expect(md).toMatch(/## Timeline\n\n- /);
    expect(md).toMatch(/\n- [^\n]* · log · /);
    // Every request, with who decided it: the push is waiting, the email timed out.
    expect(md).toMatch(/\| git_push \| .* \| pending \| — \|/);
    expect(md).toMatch(/\| send_email \| .* \| timed_out \|/);
    expect(md).toMatch(/\*\*stagnation\*\* tripped: STAGNATION_DETECTED \(\d+ of \d+\)/);
    expect(md).toMatch(/## Spend by model\n\n\| model \| calls/);
    expect(md).toMatch(/## Still waiting\n\n- `req-[^`]+` .*\(git_push, pending since/);
    expect(md).toContain('Find out why stagnation tripped');
  });

  it('prints the report of the last ended session without an id', async () => {
    const r = await d.cli(['report']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# Session report: demo-agent/);
  });

  it('says so for an unknown session (exit 3)', async () => {
    const r = await d.cli(['report', 'ses-nope']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/ses-nope/);
  });
});
