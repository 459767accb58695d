import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPackageManagerPrograms,
  programsNamedIn,
} from '../../../../shared/node/package-manager-programs';

describe("the program files package managers' configs name", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-pm-programs-')));
  const home = join(root, 'home');
  mkdirSync(home);
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  /** A folder holding one config file with `text`. */
  let n = 0;
  const folderWith = (file: string, text: string): string => {
    const dir = join(root, `p${n++}`);
    mkdirSync(dir);
    writeFileSync(join(dir, file), text);
    return dir;
  };

  it.each([
    // Berry's `.yarnrc.yml`, as `yarn set version` and `yarn plugin import` write it.
    [
      '.yarnrc.yml',
      'nodeLinker: node-modules\n\nplugins:\n  - path: .yarn/plugins/@yarnpkg/plugin-workspace-tools.cjs\n    spec: "@yarnpkg/plugin-workspace-tools"\n\nyarnPath: .yarn/releases/yarn-4.5.0.cjs\n',
      ['.yarn/plugins/@yarnpkg/plugin-workspace-tools.cjs', '.yarn/releases/yarn-4.5.0.cjs'],
    ],
    // Quoted, commented, a plugin named by path alone, a flow list, the env files.
    [
      '.yarnrc.yml',
      '# yarn\n"yarnPath": "tools/yarn.cjs" # pinned\nplugins:\n  - ./plugins/a.cjs\n  - path: \'plugins/b.cjs\'\ninjectEnvironmentFiles:\n  - .env.local?\n',
      ['tools/yarn.cjs', 'plugins/a.cjs', 'plugins/b.cjs', '.env.local'],
    ],
    ['.yarnrc.yml', 'plugins: [x.cjs, {path: y.cjs, spec: y}]\n', ['x.cjs', 'y.cjs']],
    // yarn 1's `.yarnrc`: `key value`, quoted or not.
    [
      '.yarnrc',
      'yarn-path "./.yarn/releases/yarn-1.22.22.js"\n',
      ['.yarn/releases/yarn-1.22.22.js'],
    ],
    ['.yarnrc', '--install.frozen-lockfile true\nyarn-path tools/yarn.js\n', ['tools/yarn.js']],
    // npm's and pnpm's shell for scripts and pnpm's hooks file.
    [
      '.npmrc',
      'script-shell = ./bin/sh\npnpmfile=hooks/pnpmfile.cjs\n',
      ['bin/sh', 'hooks/pnpmfile.cjs'],
    ],
    [
      'pnpm-workspace.yaml',
      "packages:\n  - 'packages/*'\npnpmfile: ./config/hooks.cjs\n",
      ['config/hooks.cjs'],
    ],
    // Settings that name no program.
    ['.yarnrc.yml', 'nodeLinker: pnp\nenableTelemetry: false\ncacheFolder: ./cache\n', []],
    ['pnpm-workspace.yaml', "packages:\n  - 'packages/*'\n", []],
  ])('%s %j names %j', (file, text, named) => {
    const dir = folderWith(file, text);
    expect(programsNamedIn(dir, home)).toEqual(named.map((p) => join(dir, p)));
  });

  it('an absolute or home path as written; a ${VAR} it cannot read is left out', () => {
    const dir = folderWith(
      '.yarnrc.yml',
      'yarnPath: ~/bin/yarn.cjs\nplugins:\n  - /opt/p.cjs\n  - ${X}/q.cjs\n',
    );
    expect(programsNamedIn(dir, home)).toEqual([join(home, 'bin/yarn.cjs'), '/opt/p.cjs']);
  });

  it("reads the configs from each folder up and the home's, and gives a linked file's real path too", () => {
    const app = folderWith('.yarnrc.yml', 'yarnPath: .yarn/releases/yarn.cjs\n');
    writeFileSync(join(home, '.yarnrc'), 'yarn-path /opt/yarn/yarn.js\n');
    mkdirSync(join(app, 'packages/web'), { recursive: true });
    const elsewhere = join(root, 'releases');
    mkdirSync(elsewhere);
    mkdirSync(join(app, '.yarn'));
    symlinkSync(elsewhere, join(app, '.yarn/releases'));
    const named = createPackageManagerPrograms(home)([join(app, 'packages/web')]);
    expect(named).toEqual(
      expect.arrayContaining([
        join(app, '.yarn/releases/yarn.cjs'),
        join(elsewhere, 'yarn.cjs'),
        '/opt/yarn/yarn.js',
      ]),
    );
  });
});
