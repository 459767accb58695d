import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createGitUrlCredentials,
  hasCredentialRewrite,
  isCredentialUrl,
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
