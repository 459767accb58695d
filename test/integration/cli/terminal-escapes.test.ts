import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';

// What an agent writes in a request is printed by the person's CLI. A terminal acts on control
// characters: this command would show as `git status` (the escape erases the line, the
// carriage return goes back to its start), and the description's right-to-left override would
// show its end first.
const HIDDEN = 'git push --force origin main\x1b[2K\rgit status';
const REVERSED = 'update docs \u202egnp.tsop/ skcod';
// eslint-disable-next-line no-control-regex -- the control characters are what is checked
const TERMINAL_ACTS_ON = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('the CLI prints what an agent wrote without handing the terminal its controls (real daemon, real CLI)', () => {
  let d: TestDaemon;
  let requestId: string;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const agent = await d.agent({ agent: 'builder\x1b]0;owned\x07' });
    const filed = await agent.request({
      action: 'git_push',
      description: REVERSED,
      command: HIDDEN,
      rationale: 'ready\x1b[8m hidden from view',
      wait: false,
    });
    requestId = filed.requestId;
    agent.close();
  }, 60_000);
  afterAll(async () => {
    await d.stop();
  });

  it('list and show print every control as its picture, the whole command visible', async () => {
    for (const args of [['list'], ['show', requestId]]) {
      const run = await d.cli(args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(TERMINAL_ACTS_ON);
      expect(run.stderr).not.toMatch(TERMINAL_ACTS_ON);
    }
    const shown = (await d.cli(['show', requestId])).stdout;
    expect(shown).toContain('git push --force origin main␛[2K␍git status');
    expect(shown).toContain('update docs \\u202egnp.tsop/ skcod');
  });

  it('JSON keeps the exact text, escaped as JSON escapes it', async () => {
    const run = await d.cli(['show', requestId, '--json']);
    expect(run.stdout).not.toMatch(TERMINAL_ACTS_ON);
    const parsed = JSON.parse(run.stdout) as { command?: string; description: string };
    expect(parsed.command).toBe(HIDDEN);
    expect(parsed.description).toBe(REVERSED);
  });
});
