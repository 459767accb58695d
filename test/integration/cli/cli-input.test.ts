import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, TestDaemon } from '../../support/daemon';

/**
 * Runs `gatehouse ARGS | head -N` in a real shell and returns the CLI's own exit status and
 * stderr (bash's PIPESTATUS), with what head printed.
 */
function cliIntoHead(
  env: NodeJS.ProcessEnv,
  args: string[],
  lines: number,
): Promise<{ status: number; stderr: string; stdout: string }> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`);
  const script = `${quoted.join(' ')} 2>"$ERR" | head -${lines}; echo "status=\${PIPESTATUS[0]}" >&2; cat "$ERR" >&2`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      env: { ...env, ERR: `${env.GATEHOUSE_HOME}.stderr` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const status = /status=(\d+)/.exec(stderr);
      resolve({
        status: status ? Number(status[1]) : -1,
        stderr: stderr.replace(/status=\d+\n/, ''),
        stdout,
      });
    });
  });
}

describe('the command line, as a person types it (real daemon, real CLI)', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const agent = await d.agent({ agent: 'builder' });
    // Enough audit trail that `export` is still writing when `head -1` has gone: well over a
    // pipe's 64 KiB buffer.
    for (let i = 0; i < 150; i++)
      await agent.request({
        action: 'git_push',
        description: `push ${i} ${'x'.repeat(600)}`,
        wait: false,
      });
    agent.close();
  }, 60_000);
  afterAll(async () => {
    await d.stop();
  });

  it('a closed pipe ends `--help | head` and `export | head -1` quietly, with status 0', async () => {
    const help = await cliIntoHead(d.env, ['--help'], 1);
    expect(help.stdout).toBe('Usage: gatehouse [options] [command]\n');
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);

    const exported = await cliIntoHead(d.env, ['export'], 1);
    expect(exported.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(exported.stdout) as { type: string }).toHaveProperty('type');
    expect(exported.stderr).toBe('');
    expect(exported.status).toBe(0);

    const listed = await cliIntoHead(d.env, ['list', '--all', '--json'], 2);
    expect(listed.stderr).toBe('');
    expect(listed.status).toBe(0);
  });

  it('config set reads the value by the setting type: text stays text, numbers are numbers', async () => {
    const topic = await d.cli(['config', 'set', 'notifications.channels.ntfy.topic', '12345']);
    expect(topic.stderr).toBe('');
    expect(topic.code).toBe(0);
    expect(topic.stdout).toContain('notifications.channels.ntfy.topic = "12345"');
    const token = await d.cli(['config', 'set', 'notifications.channels.ntfy.token', '9']);
    expect(token.code).toBe(0);
    const read = await d.cli(['config', 'get', 'notifications.channels.ntfy.token']);
    expect(JSON.parse(read.stdout)).toBe('9');

    const port = await d.cli(['config', 'set', 'notifications.channels.email.port', '2525']);
    expect(port.stdout).toContain('notifications.channels.email.port = 2525');
    const on = await d.cli(['config', 'set', 'notifications.channels.email.secure', 'true']);
    expect(on.stdout).toContain('notifications.channels.email.secure = true');
    // A number setting given text is refused by the daemon, not stored.
    const bad = await d.cli(['config', 'set', 'notifications.channels.email.port', 'many']);
    expect(bad.code).toBe(4);
    expect(
      (await d.cli(['config', 'get', 'notifications.channels.email.port'])).stdout.trim(),
    ).toBe('2525');
  });

  it('rules add refuses a pattern that can never match a parsed command, and saves nothing', async () => {
    for (const pattern of ['*', 'git push;rm:*', 'git *:*', 'git push && rm -rf /:*']) {
      const r = await d.cli([
        'rules',
        'add',
        'run_command',
        '--tier',
        'auto',
        '--pattern',
        pattern,
      ]);
      expect(r.code, pattern).toBe(4);
      expect(r.stderr, pattern).toContain(`the pattern "${pattern}"`);
      expect(r.stderr, pattern).toContain("e.g. 'git push:*'");
    }
    expect((await d.cli(['rules', 'list'])).stdout).toContain('No rules.');
    // Accepting a suggestion with such a pattern is refused the same way, before anything else.
    const admin = await d.admin();
    await expect(
      admin.call('suggestions.accept', {
        key: '0123456789abcdef',
        draft: { action: 'run_command', commandPrefix: 'git push;rm:*' },
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("e.g. 'git push:*'"),
    });
    admin.close();

    // The example it gives is accepted, and covers the command it names.
    const ok = await d.cli([
      'rules',
      'add',
      'run_command',
      '--tier',
      'ask',
      '--pattern',
      'git push:*',
    ]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const saved = JSON.parse((await d.cli(['rules', 'list', '--json'])).stdout) as {
      commandPrefix?: string;
    }[];
    expect(saved.map((r) => r.commandPrefix)).toEqual(['git push']);
  });

  it('log --type X shows the audit events of that type (it implies --audit)', async () => {
    const typed = await d.cli(['log', '--type', 'request.filed', '--limit', '3', '--json']);
    expect(typed.code).toBe(0);
    const events = JSON.parse(typed.stdout) as { type: string; seq: number }[];
    expect(events).toHaveLength(3);
    expect(events.every((e) => e.type === 'request.filed')).toBe(true);
    // Same answer as with --audit spelled out.
    const spelled = await d.cli([
      'log',
      '--audit',
      '--type',
      'request.filed',
      '--limit',
      '3',
      '--json',
    ]);
    expect(JSON.parse(spelled.stdout)).toEqual(events);
  });
});
