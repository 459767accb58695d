import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { placedCommands } from '../../../../main/picture/placed-commands';
import { pushesIn } from '../../../../main/picture/push-commands';

const pushes = async (command: string, cwd: string | undefined = '/work/app') =>
  pushesIn(await placedCommands(command, cwd));

describe('the directory a push reads', () => {
  it("is the call's own, moved by each cd before the push", async () => {
    expect(await pushes('git push origin main')).toEqual([
      { target: { remote: 'origin', refspec: 'main', force: false }, cwd: '/work/app' },
    ]);
    expect(await pushes('cd sub && git push -f')).toEqual([
      { target: { force: true }, cwd: '/work/app/sub' },
    ]);
    expect((await pushes('cd /srv/repo; cd ../other && git push'))[0]!.cwd).toBe('/srv/other');
    expect((await pushes('cd && git push'))[0]!.cwd).toBe(homedir());
    expect((await pushes('pushd ~/code/x >/dev/null && git push'))[0]!.cwd).toBe(
      `${homedir()}/code/x`,
    );
  });

  it('follows each git -C in turn, after the cds', async () => {
    expect((await pushes('git -C sub push origin main'))[0]!.cwd).toBe('/work/app/sub');
    expect((await pushes('cd a && git -C b -C ../c push'))[0]!.cwd).toBe('/work/app/a/c');
    expect((await pushes('git -C /abs -c x.y=z push'))[0]!.cwd).toBe('/abs');
    expect((await pushes('env GIT_TRACE=1 git -C sub push'))[0]!.cwd).toBe('/work/app/sub');
  });

  it('says it does not know the directory rather than reading another repository', async () => {
    for (const [command, why] of [
      ['cd "$REPO" && git push', /cd \$REPO/],
      ['cd - && git push', /cd -/],
      ['cd ~bob && git push', /cd ~bob/],
      ['git -C $DIR push', /\$DIR/],
      ['git --git-dir=/x/.git push', /its own repository/],
    ] as const) {
      const [push] = await pushes(command);
      expect(push!.cwd).toBeUndefined();
      expect(push!.unknownDir).toMatch(why);
    }
  });

  it('finds no push in a command that only mentions one, and every push of a line', async () => {
    expect(await pushes('echo git push && git status')).toEqual([]);
    expect(await pushes('git log push')).toEqual([]);
    expect(
      (await pushes('git push origin a; cd x && git push upstream b')).map((p) => [
        p.target.remote,
        p.cwd,
      ]),
    ).toEqual([
      ['origin', '/work/app'],
      ['upstream', '/work/app/x'],
    ]);
  });
});
