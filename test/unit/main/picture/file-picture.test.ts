import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPaths } from '../../../../main/picture/closed-paths';
import { filePictures } from '../../../../main/picture/file-picture';
import { fileEditOf } from '../../../../shared/request-picture/file-edits';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gh-file-'));
  writeFileSync(join(dir, 'app.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const picturesOf = (tool: string, input: Record<string, unknown>, cwd = dir) =>
  filePictures(fileEditOf(tool, input)!, cwd);
const pictureOf = async (tool: string, input: Record<string, unknown>, cwd = dir) =>
  (await picturesOf(tool, input, cwd))[0]!;

describe('file picture', () => {
  it("diffs a Claude Code Edit against the file on disk, resolved from the call's directory", async () => {
    const p = await pictureOf('Edit', {
      file_path: 'app.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 20;\nconst d = 4;',
    });
    expect(p).toMatchObject({ path: join(dir, 'app.ts'), kind: 'modify', added: 2, removed: 1 });
    expect(p.diff).toBe(
      [
        `--- a${join(dir, 'app.ts')}`,
        `+++ b${join(dir, 'app.ts')}`,
        '@@ -1,3 +1,4 @@',
        ' const a = 1;',
        '-const b = 2;',
        '+const b = 20;',
        '+const d = 4;',
        ' const c = 3;',
      ].join('\n'),
    );
  });

  it('reads each agent: Gemini replace, OpenCode edit, Copilot create, MultiEdit in turn', async () => {
    expect(
      await pictureOf('replace', {
        file_path: 'app.ts',
        old_string: 'const a = 1;',
        new_string: 'let a = 1;',
      }),
    ).toMatchObject({ added: 1, removed: 1 });
    expect(
      await pictureOf('edit', { filePath: 'app.ts', oldString: 'const c = 3;\n', newString: '' }),
    ).toMatchObject({ added: 0, removed: 1 });
    expect(await pictureOf('create', { path: 'new.ts', file_text: 'x\ny\n' })).toMatchObject({
      kind: 'create',
      added: 2,
      removed: 0,
    });
    const multi = await pictureOf('MultiEdit', {
      file_path: join(dir, 'app.ts'),
      edits: [
        { old_string: 'const a = 1;', new_string: 'const a = 10;' },
        { old_string: 'const a = 10;', new_string: 'const a = 100;' },
      ],
    });
    expect(multi.diff).toContain('+const a = 100;');
    expect(multi).toMatchObject({ added: 1, removed: 1 });
  });

  it("shows a Codex patch's own lines, one picture per file it changes", async () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: app.ts',
      '@@',
      '-const a = 1;',
      '+const a = 2;',
      '*** Add File: src/new.ts',
      '+export const n = 1;',
      '+export const m = 2;',
      '*** Delete File: old.ts',
      '*** End Patch',
    ].join('\n');
    expect(await picturesOf('apply_patch', { patch })).toEqual([
      {
        path: join(dir, 'app.ts'),
        kind: 'patch',
        added: 1,
        removed: 1,
        diff: '*** Update File: app.ts\n@@\n-const a = 1;\n+const a = 2;',
      },
      {
        path: join(dir, 'src/new.ts'),
        kind: 'create',
        added: 2,
        removed: 0,
        diff: '*** Add File: src/new.ts\n+export const n = 1;\n+export const m = 2;',
      },
      {
        path: join(dir, 'old.ts'),
        kind: 'patch',
        added: 0,
        removed: 0,
        diff: '*** Delete File: old.ts',
      },
    ]);
  });

  it('splits a git diff of several files, and bounds them together: the rest are counted, not shown', async () => {
    const file = (name: string, n: number) =>
      [
        `diff --git a/${name} b/${name}`,
        'index 1111111..2222222 100644',
        `--- a/${name}`,
        `+++ b/${name}`,
        `@@ -1,0 +1,${n} @@`,
        ...Array.from({ length: n }, (_, i) => `+line ${i} of ${name}`),
      ].join('\n');
    const patch = [file('a.txt', 10), file('b.txt', 3000), file('c.txt', 5)].join('\n');
    const pictures = await filePictures({ kind: 'patch', patch }, dir, {
      maxFileBytes: 1_000_000,
      maxDiffChars: 2000,
    });
    expect(pictures.map((p) => [p.path, p.added])).toEqual([
      [join(dir, 'a.txt'), 10],
      [join(dir, 'b.txt'), 3000],
      [join(dir, 'c.txt'), 5],
    ]);
    expect(pictures[0]!.diff).toContain('+line 9 of a.txt');
    expect(pictures[1]!.omitted).toMatch(/the diff is cut: \d+ more lines not shown/);
    expect(pictures[2]!.diff).toBeUndefined();
    expect(pictures[2]!.omitted).toBe('not shown: the size limit of the picture is reached');
    const shown = pictures.reduce((n, p) => n + (p.diff?.length ?? 0), 0);
    expect(shown).toBeLessThanOrEqual(2000);
  });

  it('says an edit would fail rather than showing a made-up diff', async () => {
    const p = await pictureOf('Edit', {
      file_path: 'app.ts',
      old_string: 'not there',
      new_string: 'x',
    });
    expect(p.omitted).toMatch(/not in the file/);
    expect(p.diff).toBeUndefined();
  });

  it('masks secrets in the diff but keeps the line that writes them', async () => {
    const p = await pictureOf('Write', {
      file_path: 'env.ts',
      content:
        'export const API_KEY = "sk-ant-abcdefghijklmnopqrstuvwx";\nconst gh = "ghp_0123456789abcdefghijABCDEFGHIJ";\n',
    });
    expect(p.diff).toContain('+export const API_KEY = "sk-a…[masked]";');
    expect(p.diff).toContain('+const gh = "ghp_…[masked]";');
    expect(p.diff).not.toContain('abcdefghijklmnop');
    expect(p.diff).not.toContain('0123456789');
  });

  it('leaves out a binary file, a huge write and a huge file, and says so', async () => {
    writeFileSync(join(dir, 'img.png'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
    const binary = await pictureOf('Edit', {
      file_path: 'img.png',
      old_string: 'P',
      new_string: 'Q',
    });
    expect(binary.omitted).toMatch(/binary/);
    const huge = 'x'.repeat(1000) + '\n';
    const started = Date.now();
    const write = await pictureOf('Write', { file_path: 'big.txt', content: huge.repeat(50_000) });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(write).toMatchObject({ added: 50_000, removed: 0 });
    expect(write.omitted).toMatch(/too large to diff \(50050000 characters\)/);
    writeFileSync(join(dir, 'big-on-disk.txt'), huge.repeat(2000));
    const disk = await pictureOf('Edit', {
      file_path: 'big-on-disk.txt',
      old_string: 'x',
      new_string: 'y',
    });
    expect(disk.omitted).toMatch(/too large to diff \(2002000 bytes on disk\)/);
  });

  it('cuts a long diff at a line and says how many lines are missing', async () => {
    const content = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const p = await pictureOf('Write', { file_path: 'long.txt', content });
    expect(p.added).toBe(20_000);
    expect(p.diff!.length).toBeLessThanOrEqual(64_000);
    expect(p.omitted).toMatch(/the diff is cut: \d+ more lines not shown/);
  });

  it('does not follow a symbolic link or open a FIFO the agent points the call at', async () => {
    writeFileSync(join(dir, 'private.txt'), 'not for the agent\n');
    symlinkSync(join(dir, 'private.txt'), join(dir, 'link.txt'));
    const link = await pictureOf('Edit', {
      file_path: 'link.txt',
      old_string: 'not',
      new_string: 'yes',
    });
    expect(link.omitted).toMatch(/symbolic link/);
    expect(JSON.stringify(link)).not.toContain('not for the agent');
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const fifo = await pictureOf('Write', { file_path: 'pipe', content: 'x' });
    expect(fifo.omitted).toMatch(/not a regular file/);
  });

  it('never reads a closed file (or a link to one) into the diff, whatever the call was classified as', async () => {
    const own = join(dir, 'gatehouse-home');
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, 'admin.token'), 'tok-0123456789abcdef\n');
    symlinkSync(own, join(dir, 'home-link'));
    const closed = closedPaths([own]);
    for (const file_path of [join(own, 'admin.token'), 'home-link/admin.token']) {
      const [p] = await filePictures(
        fileEditOf('Edit', { file_path, old_string: 'tok', new_string: 'x' })!,
        dir,
        undefined,
        undefined,
        closed,
      );
      expect(p!.omitted, file_path).toMatch(/not read \(Gatehouse's own files\)/);
      expect(JSON.stringify(p), file_path).not.toContain('0123456789abcdef');
    }
  });
});
