import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyAction } from '../../../../../main/engine/policy/classifier';
import type { HistorySecret } from '../../../../../main/engine/policy/path-port';
import type { PathContext } from '../../../../../main/engine/policy/protected-paths';
import { loadBashParser } from '../../../../../shared/node/bash-parser';
import { bashActions } from '../../../../../shared/tools/bash-actions';
import { historyRead } from '../../../../../shared/tools/commands/git';
import { testPathContext } from '../../../../support/path-context';

const read = (line: string) => historyRead(line.split(' '));

describe('historyRead: what a git command prints from the repository history', () => {
  it('patches of log, whatchanged and reflog; a commit shown; a diff or grep against a revision; an object by id', () => {
    for (const line of [
      'log -p',
      'log -p --all --oneline',
      'log -pw',
      'log -U3',
      'log --cc',
      'log -L1,5:a.ts',
      'whatchanged -p',
      'reflog -p',
      'stash show',
      'show',
      'show HEAD~3',
      'show --oneline',
      'show --stat -p HEAD',
      'diff HEAD~5',
      'diff HEAD~5..HEAD',
      'grep KEY HEAD~5',
      'grep -e A -e B HEAD',
      'cat-file -p 1234abcd',
      'cat-file blob 1234abcd',
      '-C sub log -p',
      // An option not known here: every file counts.
      'log -p --diff-merges=on',
    ])
      expect(read(line), line).toEqual({ pathspecs: [] });
  });

  it('paths after -- narrow it; an operand before it may be a revision and narrows nothing', () => {
    expect(read('diff HEAD~5 -- src')).toEqual({ pathspecs: ['src'] });
    expect(read('grep KEY HEAD -- src lib')).toEqual({ pathspecs: ['src', 'lib'] });
    expect(read('log -p src/a.ts')).toEqual({ pathspecs: [] });
  });

  it('git diff of the working tree or the index: the changes of the files tracked now', () => {
    expect(read('diff')).toEqual({ pathspecs: [], tracked: true });
    expect(read('diff --cached')).toEqual({ pathspecs: [], tracked: true });
    expect(read('diff -- src')).toEqual({ pathspecs: ['src'], tracked: true });
    expect(read('diff --stat')).toBeUndefined();
  });

  it('nothing for what prints no file lines, or only the files it names by revision and path', () => {
    for (const line of [
      'log --oneline',
      'log -1 --format=%B',
      'log --stat',
      'log -S KEY --oneline',
      'reflog',
      'stash list',
      'show -s HEAD',
      'show --stat HEAD',
      'show HEAD:src/a.ts',
      'diff --stat HEAD~3',
      'diff HEAD:a HEAD~1:a',
      'grep KEY',
      'grep -e KEY',
      'grep KEY -- src',
      'grep -l KEY HEAD',
      'grep --untracked KEY',
      'cat-file -t 1234abcd',
      'cat-file -p HEAD:a.ts',
      'status',
    ])
      expect(read(line), line).toBeUndefined();
  });
});

describe('a history read in the classification', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-history-read-'));
  const home = join(root, 'home');
  const project = join(home, 'code/app');
  let paths: PathContext;
  const asked: { dir: string; pathspecs: readonly string[] }[] = [];
  let answer: HistorySecret | undefined;
  beforeAll(async () => {
    mkdirSync(join(project, 'sub'), { recursive: true });
    const shell = await loadBashParser();
    paths = {
      ...testPathContext({ root, home, data: join(home, '.local/share/gatehouse'), shell }),
      cwd: project,
      historySecret(dir, pathspecs) {
        asked.push({ dir, pathspecs });
        // Where git runs by -C (the line's working directory is asked too).
        return dir.endsWith('/sub') || !answer || 'unread' in answer ? answer : undefined;
      },
    };
  });
  const classify = (command: string) =>
    bashActions(command, paths.shell).map((spec) =>
      classifyAction({ ...spec, command }, { project, rules: [], paths }),
    );

  it('asks where the history holds a secret or could not be read, saying which; asks the port where git runs', () => {
    answer = { path: join(project, 'sub/.env') };
    asked.length = 0;
    const [found] = classify('git -C sub log -p -- .');
    expect(found).toMatchObject({ tier: 'ask', rule: 'default:secret_path' });
    expect(found!.reason).toContain(join(project, 'sub/.env'));
    expect(asked).toContainEqual({ dir: join(project, 'sub'), pathspecs: ['.'] });
    answer = { unread: 'its history is larger than Gatehouse reads at once' };
    const [unread] = classify('git show HEAD~2');
    expect(unread).toMatchObject({ tier: 'ask', rule: 'default:secret_path' });
    expect(unread!.reason).toContain('could not read');
    answer = undefined;
    expect(classify('git log -p')[0]).toMatchObject({ tier: 'auto' });
    asked.length = 0;
    expect(classify('git log --oneline')[0]).toMatchObject({ tier: 'auto' });
    expect(asked).toEqual([]);
  });
});
