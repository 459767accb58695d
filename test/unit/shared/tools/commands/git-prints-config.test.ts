import { describe, expect, it } from 'vitest';
import { printsRemoteUrls, printsRepositoryConfig } from '../../../../../shared/tools/commands/git';

const words = (command: string) => command.split(' ').slice(1);

describe("git commands that print the repository's remote URLs", () => {
  it.each(['git remote -v', 'git remote --verbose', 'git remote get-url origin'])(
    '%s prints them (after rewrites)',
    (command) => expect(printsRemoteUrls(words(command))).toBe(true),
  );

  it.each([
    'git config --get remote.origin.url',
    'git config --local -l',
    'git config --list',
    'git config --get-regexp url',
    'git config --get http.https://github.com/.extraheader',
    'git config --get submodule.lib.url',
  ])('%s prints where a credential can be in its config', (command) =>
    expect(printsRepositoryConfig(words(command))).toBe(true),
  );

  it.each([
    'git remote',
    'git config --get user.name',
    'git config --global --get remote.origin.url',
    'git config --file x.cfg -l',
    'git config remote.origin.url https://x',
    'git status',
  ])('%s does not', (command) => {
    expect(printsRemoteUrls(words(command))).toBe(false);
    expect(printsRepositoryConfig(words(command))).toBe(false);
  });
});
