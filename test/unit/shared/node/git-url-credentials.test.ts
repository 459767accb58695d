import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createCredentialFiles,
  createGitUrlCredentials,
  createRepositoryCredentials,
  hasCredentialRewrite,
  holdsCredential,
  isCredentialUrl,
  isRemoteCredential,
  repositoryConfigFile,
} from '../../../../shared/node/git-url-credentials';

describe('isCredentialUrl: a rewrite base that carries a secret', () => {
  it.each([
    'https://ghp_abc@github.com/',
    'https://x-access-token:ghs_abc@github.com/',
    'http://oauth2:glpat-abc@gitlab.example.com/',
    'ssh://deploy:hunter2@git.example.com/',
  ])('%s does', (base) => expect(isCredentialUrl(base)).toBe(true));

  it.each([
    'https://github.com/',
    'git@github.com:',
    'ssh://git@github.com/',
    'https://github.com/org/a@b',
    'file:///srv/git/',
  ])('%s does not', (base) => expect(isCredentialUrl(base)).toBe(false));
});

describe('hasCredentialRewrite: a git config text', () => {
  it('finds a [url] section whose base holds a credential, in either syntax and any case', () => {
    expect(
      hasCredentialRewrite('[url "https://TOKEN@github.com/"]\n\tinsteadOf = https://github.com/'),
    ).toBe(true);
    expect(hasCredentialRewrite('  [URL "https://a:b@h/"]  ')).toBe(true);
    expect(hasCredentialRewrite('[url.https://TOKEN@github.com/]\n\tinsteadOf = x')).toBe(true);
    expect(hasCredentialRewrite('[url "git@github.com:"]\n\tinsteadOf = https://github.com/')).toBe(
      false,
    );
    expect(hasCredentialRewrite('[remote "origin"]\n\turl = https://TOKEN@github.com/x')).toBe(
      false,
    );
  });
});

describe("createGitUrlCredentials: the person's config files, read as git reads them", () => {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-url-creds-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('names the user config file, or a file it includes, that holds such a rewrite; reads again after a second', async () => {
    const env = { XDG_CONFIG_HOME: join(home, '.config') };
    const found = createGitUrlCredentials(home, env);
    expect(found()).toEqual([]);
    writeFileSync(
      join(home, 'tokens.cfg'),
      '[url "https://TOKEN@github.com/"]\n\tinsteadOf = https://github.com/\n',
    );
    writeFileSync(join(home, '.gitconfig'), '[include]\n\tpath = ~/tokens.cfg\n');
    await new Promise((r) => setTimeout(r, 1100));
    expect(found()).toEqual([join(home, 'tokens.cfg')]);
    mkdirSync(join(home, '.config/git'), { recursive: true });
    writeFileSync(
      join(home, '.config/git/config'),
      '[url "https://a:b@example.com/"]\n\tinsteadOf = e:\n',
    );
    expect(createGitUrlCredentials(home, env)()).toEqual([
      join(home, '.config/git/config'),
      join(home, 'tokens.cfg'),
    ]);
  });
});

describe("a repository's own config: a remote URL with a token", () => {
  it.each([
    ['https://user:ghp_abc@github.com/o/r.git', true],
    ['https://ghp_abcdef@github.com/o/r.git', true],
    ['https://oauth2:glpat-x@gitlab.com/o/r.git', true],
    ['https://abcdefghijklmnopqrstuvwxyz0123456789@host/r.git', true],
    ['https://dev@bitbucket.org/o/r.git', false],
    ['https://github.com/o/r.git', false],
    ['git@github.com:o/r.git', false],
    ['ssh://git@github.com/o/r.git', false],
  ])('%s: %s', (url, holds) => expect(isRemoteCredential(url)).toBe(holds));

  it('holdsCredential reads url, pushurl, a rewrite and an extraHeader', () => {
    expect(holdsCredential('[remote "origin"]\n\turl = https://u:t@h/r.git\n')).toBe(true);
    expect(holdsCredential('[remote "o"]\n\tpushurl = "https://ghp_x@h/r"\n')).toBe(true);
    expect(holdsCredential('[http]\n\textraheader = AUTHORIZATION: basic eA==\n')).toBe(true);
    expect(holdsCredential('[url "https://ghp_x@github.com/"]\n\tinsteadOf = gh:\n')).toBe(true);
    expect(holdsCredential('[remote "origin"]\n\turl = https://github.com/o/r.git\n')).toBe(false);
  });

  it("finds the repository's config from any folder in it, and a worktree's common one", () => {
    const root = mkdtempSync(join(tmpdir(), 'gatehouse-repo-config-'));
    try {
      const repo = join(root, 'repo');
      mkdirSync(join(repo, '.git', 'worktrees', 'w'), { recursive: true });
      mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
      writeFileSync(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = https://u:t@h/r\n');
      writeFileSync(join(repo, '.git', 'worktrees', 'w', 'commondir'), '../..\n');
      const tree = join(root, 'w');
      mkdirSync(tree);
      writeFileSync(join(tree, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'w')}\n`);
      expect(repositoryConfigFile(join(repo, 'src', 'deep'))).toBe(join(repo, '.git', 'config'));
      expect(repositoryConfigFile(tree)).toBe(join(repo, '.git', 'config'));
      expect(repositoryConfigFile(root)).toBeUndefined();
      const credential = createRepositoryCredentials();
      expect(credential(join(repo, 'src'))).toBe(join(repo, '.git', 'config'));
      expect(credential(root)).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('createCredentialFiles: a project file holding a token written in it', () => {
  it('reads only .git/config, .npmrc and .yarnrc.yml, and tells a written token from an environment reference', () => {
    const root = mkdtempSync(join(tmpdir(), 'gatehouse-credential-files-'));
    try {
      const files: Record<string, string> = {
        'a/.npmrc': '//registry.npmjs.org/:_authToken=npm_abc\n',
        'b/.npmrc': '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\nengine-strict=true\n',
        'c/.npmrc': '# _authToken=npm_abc\n',
        'd/.npmrc': '_auth = dXNlcjpwYXNz\n',
        'a/.yarnrc.yml': 'npmAuthToken: npm_abc\n',
        'b/.yarnrc.yml': 'npmAuthToken: "${NPM_TOKEN}"\n',
        'a/.git/config': '[remote "origin"]\n\turl = https://u:t@h/r\n',
        'a/notes.txt': '_authToken=npm_abc\n',
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      const kind = createCredentialFiles();
      expect(kind(join(root, 'a/.npmrc'))).toMatch(/npm/);
      expect(kind(join(root, 'd/.npmrc'))).toMatch(/npm/);
      expect(kind(join(root, 'a/.yarnrc.yml'))).toMatch(/yarn/);
      expect(kind(join(root, 'a/.git/config'))).toMatch(/git config/);
      for (const path of ['b/.npmrc', 'c/.npmrc', 'b/.yarnrc.yml', 'a/notes.txt', 'none/.npmrc'])
        expect(kind(join(root, path)), path).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
