import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNpmPrefix, prefixIn } from '../../../../shared/node/npm-prefix';

describe("npm's global prefix as the person set it", () => {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-npm-prefix-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it.each([
    ['prefix=~/.local', '~/.local'],
    ['  prefix = /opt/npm  ', '/opt/npm'],
    ['prefix="/opt/with space"', '/opt/with space'],
    ['prefix=/opt/npm ; a comment', '/opt/npm'],
    ['; prefix=/commented\nregistry=https://x', undefined],
    ['prefix=/first\nprefix=/last', '/last'],
    ['init-prefix=/not-it', undefined],
  ])('reads %j as %s', (npmrc, prefix) => {
    expect(prefixIn(npmrc)).toBe(prefix);
  });

  it("reads ~/.npmrc (~ and ${VAR} expanded as npm does); the environment's setting wins", () => {
    writeFileSync(join(home, '.npmrc'), 'prefix=~/.local\n');
    expect(createNpmPrefix(home, {})()).toBe(join(home, '.local'));
    writeFileSync(join(home, '.npmrc'), 'prefix=${TOOLS}/npm\n');
    expect(createNpmPrefix(home, { TOOLS: '/srv' })()).toBe('/srv/npm');
    // An unset variable or a relative path names nothing Gatehouse can protect.
    expect(createNpmPrefix(home, {})()).toBeUndefined();
    writeFileSync(join(home, '.npmrc'), 'prefix=relative/npm\n');
    expect(createNpmPrefix(home, {})()).toBeUndefined();
    expect(createNpmPrefix(home, { NPM_CONFIG_PREFIX: '/env/npm' })()).toBe('/env/npm');
    expect(createNpmPrefix(home, { npm_config_prefix: '/npm-start/prefix' })()).toBe(
      '/npm-start/prefix',
    );
  });

  it('reads the user config npm is told to read instead of ~/.npmrc', () => {
    const other = join(home, 'other.npmrc');
    writeFileSync(other, 'prefix=/from/userconfig\n');
    expect(createNpmPrefix(home, { NPM_CONFIG_USERCONFIG: other })()).toBe('/from/userconfig');
    expect(createNpmPrefix(join(home, 'nowhere'), {})()).toBeUndefined();
  });
});
