import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';

const SECRET = 'sk-live-SED-SCRIPT-7e41';

/** A project with a README, a settings-like file, a `.env` and an empty `.claude` folder. */
function makeProject(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  writeFileSync(join(dir, 'README.md'), 'hello\n');
  writeFileSync(join(dir, 'settings.txt'), '{"hooks":{}}\n');
  writeFileSync(join(dir, '.env'), `API_KEY=${SECRET}\n`);
  mkdirSync(join(dir, '.claude'));
  return dir;
}

/** What a command did in `dir`: printed the secret, made the marker, wrote settings.json. */
function damage(dir: string, printed: string) {
  return {
    printedSecret: printed.includes(SECRET),
    ranCommand: existsSync(join(dir, 'pwned')),
    wroteSettings: existsSync(join(dir, '.claude/settings.json')),
  };
}

/**
 * sed scripts that run commands, print a secret file or write a protected file, hidden from
 * the script reader (sed-script.ts), which did not read them the way GNU sed 4.9 does:
 * - a label ends at a blank, and the rest is the next command: `:a e touch pwned` ran it, `:a r
 *   .env` printed the .env, `:a w .claude/settings.json` wrote that file (the reader skipped the
 *   label up to `;`, a newline or `}`);
 * - a bracket expression holds the delimiter: in `s/[/]x/touch pwned/e` the reader ended the
 *   regex at the `/` inside `[/]`, read what followed as harmless commands and skipped the `e`
 *   flag (the `w` flag the same way).
 * The last command checks that the `-e` pieces, now read as one script, still ask when the
 * first piece's `a` text ends (`\\` before the newline) and the second is a command.
 * Each command is run plainly by bash first (calibration: it does the damage), then through the
 * real hook against a real daemon, where it is denied and nothing happens.
 */
describe('sed scripts read as GNU sed reads them (real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('sed-script');
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  /** A fresh project for each command, so that no command sees another's damage. */
  const fresh = (): string => {
    const dir = makeProject('gatehouse-sed-script-');
    made.push(dir);
    return dir;
  };

  /** Runs the command plainly in a fresh project: the damage it does. */
  function calibrate(command: string) {
    const dir = fresh();
    const out = spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8' });
    return damage(dir, out.stdout);
  }

  it.each([
    ["sed -n ':a e touch pwned' README.md", 'ranCommand'],
    ["sed -n ':a r .env' README.md", 'printedSecret'],
    ["sed -n ':a w .claude/settings.json' settings.txt", 'wroteSettings'],
    ["sed -n 'ba;:a e touch pwned' README.md", 'ranCommand'],
    ["sed 's/[/]*.*/touch pwned/e' README.md", 'ranCommand'],
    ["sed 's/[/]*.*/cat .env/e' README.md", 'printedSecret'],
    ["sed -n 's/[/]*/a/;s/^a//w .claude/settings.json' settings.txt", 'wroteSettings'],
    ["sed 's/[]/]*.*/cat .env/e' README.md", 'printedSecret'],
    ["sed -e 'a x\\\\' -e 'e touch pwned' README.md", 'ranCommand'],
  ] as const)('%s is denied (plainly run: %s)', async (command, harm) => {
    expect(calibrate(command)[harm], command).toBe(true);
    const project = fresh();
    const r = await hook.bashIn(project)(command);
    expect(r.decision, command).toBe('deny');
    expect(damage(project, r.printed)).toEqual({
      printedSecret: false,
      ranCommand: false,
      wroteSettings: false,
    });
  });

  it('everyday sed stays allowed and prints', async () => {
    const project = fresh();
    for (const command of [
      "sed -n '1,20p' README.md",
      "sed 's|/usr|/opt|g;s/[/]/-/' README.md",
      "sed -n ':a;/hel/p' README.md",
    ]) {
      const r = await hook.bashIn(project)(command);
      expect(r.decision, command).toBe('allow');
      expect(r.printed, command).toContain('hello');
    }
  });
});
