import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_TREE, pushPicture, pushTargetOf } from '../../../../main/picture/push-picture';
import { fullPushDiff } from '../../../../main/picture/push-diff';
import { safeGit } from '../../../../main/picture/safe-git';
import { addManyCommits, armAgainstGit, git } from '../../../support/hostile-git';

let root: string;
let repo: string;
let marker: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'gh-push-'));
  const bare = join(root, 'remote.git');
  repo = join(root, 'work');
  marker = join(root, 'MARKER');
  git(root, 'init', '--bare', '-b', 'main', bare);
  git(root, 'init', '-b', 'main', repo);
  writeFileSync(join(repo, 'a.txt'), 'one\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-m', 'first');
  git(repo, 'remote', 'add', 'origin', bare);
  git(repo, 'push', 'origin', 'main');
  for (let i = 1; i <= 3; i++) {
    writeFileSync(join(repo, `f${i}.txt`), `file ${i}\n`);
    git(repo, 'add', '.');
    git(repo, 'commit', '-m', `change ${i}`);
  }
  // The attack: every config that can name a program points at one that writes the marker.
  armAgainstGit(repo, root, marker);
  // The config is set: committing the attributes file would itself run the hooks.
  git(repo, '-c', 'core.hooksPath=/dev/null', 'add', '.gitattributes');
  git(
    repo,
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'core.fsmonitor=',
    'commit',
    '-m',
    'attributes',
  );
  rmSync(marker, { force: true });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('push picture', () => {
  it('reads a command the way git push takes it', () => {
    expect(pushTargetOf('git push origin main')).toEqual({
      remote: 'origin',
      refspec: 'main',
      force: false,
    });
    expect(pushTargetOf('git push -f origin feat:main')).toEqual({
      remote: 'origin',
      refspec: 'feat:main',
      force: true,
    });
    expect(pushTargetOf('git push --force-with-lease=main origin')).toEqual({
      remote: 'origin',
      force: true,
    });
    expect(pushTargetOf('git push origin +main')).toEqual({
      remote: 'origin',
      refspec: 'main',
      force: true,
    });
    expect(pushTargetOf('git push')).toEqual({ force: false });
  });

  it('lists the commits the remote lacks with their diffstat, and runs none of the repository config', async () => {
    const picture = await pushPicture(repo, pushTargetOf('git push origin main'));
    expect(picture.remote).toBe('origin');
    expect(picture.url).toBe(join(root, 'remote.git'));
    expect(picture.branch).toBe('main');
    expect(picture.force).toBe(false);
    expect(picture.commitCount).toBe(4);
    expect(picture.commits.map((c) => c.subject)).toEqual([
      'attributes',
      'change 3',
      'change 2',
      'change 1',
    ]);
    expect(picture.commits[0]!.author).toBe('Ann Agent');
    expect(picture.diffstat).toContain('f1.txt');
    expect(picture.diffstat).toContain('4 files changed');
    expect(existsSync(marker)).toBe(false);
  });

  it('gives a new branch (no remote-tracking branch) the diffstat of the commits the remote lacks', async () => {
    // Made with the repository's programs turned off: the test's own git must not trip them.
    const quiet = (...args: string[]) =>
      git(repo, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=', ...args);
    quiet('branch', 'feature', 'main');
    quiet(
      'update-ref',
      'refs/heads/feature',
      quiet('commit-tree', '-p', 'main', '-m', 'feat', 'main^{tree}').trim(),
    );
    rmSync(marker, { force: true });
    const picture = await pushPicture(repo, pushTargetOf('git push origin feature'));
    expect(picture).toMatchObject({ branch: 'feature', commitCount: 5, cwd: repo });
    expect(picture.commits[0]!.subject).toBe('feat');
    // Against where the branch leaves what origin has: origin/main's commit.
    expect(picture.base).toBe(git(repo, 'rev-parse', 'origin/main').trim());
    expect(picture.head).toBe(git(repo, 'rev-parse', 'feature').trim());
    expect(picture.diffstat).toContain('f3.txt');
    expect(picture.diffstat).toContain('4 files changed');
    expect(picture.omitted).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });

  it('gives a branch whose remote has nothing yet the diffstat of all its commits', async () => {
    const fresh = join(root, 'fresh');
    git(root, 'init', '--quiet', '-b', 'main', fresh);
    writeFileSync(join(fresh, 'one.txt'), '1\n');
    git(fresh, 'add', '.');
    git(fresh, 'commit', '--quiet', '-m', 'one');
    git(fresh, 'remote', 'add', 'origin', join(root, 'nowhere.git'));
    const picture = await pushPicture(fresh, pushTargetOf('git push -u origin main'));
    expect(picture).toMatchObject({ commitCount: 1, base: EMPTY_TREE });
    expect(picture.diffstat).toContain('one.txt | 1 +');
  });

  it("computes a push's full diff from the commits its picture recorded, neutralised, and refuses anything but commit ids", async () => {
    const picture = await pushPicture(repo, pushTargetOf('git push origin main'));
    const full = await fullPushDiff(picture);
    expect(full.diff).toContain('+file 3');
    expect(full.omitted).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
    const out = join(root, 'written-by-git');
    for (const head of [`--output=${out}`, 'main', 'HEAD~1'])
      expect(await fullPushDiff({ ...picture, head })).toEqual({
        omitted: 'the push names no commits to diff',
      });
    expect(existsSync(out)).toBe(false);
    expect(await fullPushDiff({ ...picture, base: undefined })).toEqual({
      omitted: 'the push was not read far enough to show its diff',
    });
    // Larger than git's output is read for: said, not cut mid-line.
    const tiny = await fullPushDiff(picture, { timeoutMs: 5000, maxOutputBytes: 100 });
    expect(tiny).toEqual({ omitted: 'the diff is larger than 100 bytes: not shown' });
  });

  it('neutralises what plain git would run in this repository (the control shows it would)', async () => {
    // Patches: external diff, textconv (from the attributes), signature check.
    for (const args of [
      ['diff', 'HEAD~2', 'HEAD'],
      ['log', '-p', '-2'],
    ]) {
      const safe = await safeGit(repo, args);
      expect(safe).toEqual({ ok: true, out: expect.stringContaining('+file 3') });
      expect(existsSync(marker)).toBe(false);
      git(repo, ...args);
      expect(existsSync(marker)).toBe(true);
      rmSync(marker);
    }
    // What refreshes the index (fsmonitor, clean filters) or writes is not run at all.
    for (const args of [
      ['status'],
      ['add', '.'],
      ['config', 'x.y', 'z'],
      ['remote', 'add', 'o', '/x'],
    ])
      expect(await safeGit(repo, args)).toEqual({
        ok: false,
        error: expect.stringMatching(/not run|only/),
      });
    git(repo, 'status');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
  });

  it('finds the remote of the current branch when the command names none', async () => {
    git(repo, 'config', 'branch.main.remote', 'origin');
    const picture = await pushPicture(repo, pushTargetOf('git push'));
    expect(picture).toMatchObject({ remote: 'origin', branch: 'main', commitCount: 4 });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses names git would read as options', async () => {
    const picture = await pushPicture(repo, { remote: '--upload-pack=touch /tmp/x', force: false });
    expect(picture.omitted).toMatch(/unusual/);
    expect(picture.commits).toEqual([]);
  });

  it('bounds a push of many commits: counted in full, listed in part, and says so', async () => {
    const many = join(root, 'many');
    git(root, 'clone', '--quiet', join(root, 'remote.git'), many);
    addManyCommits(many, 10_000, 50);
    const started = Date.now();
    const picture = await pushPicture(many, pushTargetOf('git push origin main'));
    const took = Date.now() - started;
    expect(picture.commitCount).toBe(10_000);
    expect(picture.commits).toHaveLength(50);
    expect(picture.commits[0]!.subject).toBe('c10000');
    expect(picture.omitted).toContain('9950 older commits not listed');
    expect(picture.diffstat).toContain('50 files changed');
    expect(took).toBeLessThan(5000);
  });
});
