import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';
import { gitIn as git } from '../../support/git';

const SECRET = 'sk-live-DD-COPY-4e19';

/**
 * A person's rule for writes (`rules add write_file --path '**' --tier auto`) let a line
 * through whose write reads a secret into the file it writes: `dd if=server.pem of=notes.txt`
 * is one write of notes.txt, and the rule relaxed the secret its `if=` word names, so the key
 * was copied where the next `cat notes.txt` printed it. Real hook processes against a real
 * daemon; what is allowed is performed by bash.
 */
describe('a write rule and the secret a write reads (real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('write-rule-secret', { writesAllowed: true });
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-write-rule-secret-')));

  beforeAll(() => {
    git(project, 'init', '-q');
    writeFileSync(join(project, 'server.pem'), `${SECRET}\n`);
    writeFileSync(join(project, 'README.md'), 'hello\n');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const run = (command: string) => hook.bashIn(project)(command);

  it('dd if= a key of= a plain file asks; dd of another file goes ahead', async () => {
    // Calibration: run, dd copies the key and cat prints it.
    const copied = spawnSync(
      'bash',
      ['-c', 'dd if=server.pem of=copy.txt status=none && cat copy.txt'],
      {
        cwd: project,
        encoding: 'utf8',
      },
    );
    expect(copied.stdout).toContain(SECRET);
    rmSync(join(project, 'copy.txt'));

    for (const command of [
      'dd if=server.pem of=notes.txt',
      'dd of=notes.txt if=server.pem status=none',
    ]) {
      const r = await run(command);
      expect(r, command).toMatchObject({ decision: 'deny', printed: '' });
      expect(r.asked, command).toMatchObject({ rule: 'default:secret_path' });
    }
    expect(spawnSync('ls', { cwd: project, encoding: 'utf8' }).stdout).not.toContain('notes.txt');
    const plain = await run('dd if=README.md of=notes.txt status=none && cat notes.txt');
    expect(plain).toMatchObject({ decision: 'allow' });
    expect(plain.printed).toContain('hello');
  });
});
