import { testPathContext } from '../../../../support/path-context';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RuleRecord } from '../../../../../shared/domain';
import { loadBashParser } from '../../../../../shared/node/bash-parser';
import type { ShellAnalysis, ShellParser } from '../../../../../shared/tools/shell-syntax';
import {
  classifyAction,
  type ActionDescription,
} from '../../../../../main/engine/policy/classifier';
import type { PathContext } from '../../../../../main/engine/policy/protected-paths';
import { secretKind } from '../../../../../main/engine/policy/secret-paths';

/**
 * One classification does its work once: the command's scan is shared by its candidate
 * actions, resolutions are remembered within a call, protected roots and locations are
 * prepared once. None of that may let one question's answer stand for another's: each test
 * here fails if a shared or remembered answer is handed to a question it does not fit.
 */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-shared-work-')));
const home = join(root, 'home');
const data = join(home, '.local/share/gatehouse');
const project = join(home, 'code/app');
let paths: PathContext;

/** The daemon's parser hands out the same analysis for the same command (main/protection.ts). */
function rememberingShell(parser: ShellParser): ShellParser {
  const seen = new Map<string, ShellAnalysis>();
  return {
    analyse(source) {
      let a = seen.get(source);
      if (!a) seen.set(source, (a = parser.analyse(source)));
      return a;
    },
  };
}

beforeAll(async () => {
  for (const d of [data, join(project, 'src'), join(home, '.ssh')])
    mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.ssh/id_rsa'), 'key');
  writeFileSync(join(project, 'id_rsa'), 'not a key');
  paths = testPathContext({
    root,
    home,
    data,
    shell: rememberingShell(await loadBashParser()),
    cwd: project,
  });
});

const allow: RuleRecord[] = ['read_file', 'run_command', 'write_file'].map((action) => ({
  ruleId: `r-${action}`,
  action,
  tier: 'auto',
  source: 'decision',
  createdAt: '2026-01-01T00:00:00.000Z',
}));
const classify = (a: ActionDescription, pc: Partial<PathContext> = {}, rules = allow) =>
  classifyAction(a, { project, rules, paths: { ...paths, ...pc } });

describe('the scan of a command is shared by its candidate actions, never changed by them', () => {
  it("a candidate's own path is not seen by the next candidate of the same command", () => {
    const command = 'cat src/a.ts';
    const first = classify({ action: 'read_file', command, paths: ['~/.ssh/id_rsa'] });
    expect(first).toMatchObject({ tier: 'ask', rule: 'default:secret_path' });
    // The same analysis again, with no path of its own: the secret was the first call's.
    expect(classify({ action: 'run_command', command })).toMatchObject({ tier: 'auto' });
    expect(classify({ action: 'read_file', command, paths: ['src/a.ts'] })).toMatchObject({
      tier: 'auto',
    });
  });

  it("an unresolvable path of one candidate does not stay in the command's scan", () => {
    const command = 'ls src';
    expect(classify({ action: 'read_file', command, paths: ['$NOPE/x'] })).toMatchObject({
      rule: 'protected:unresolved_path',
    });
    expect(classify({ action: 'run_command', command })).toMatchObject({ tier: 'auto' });
  });
});

describe('a resolution remembered within one call answers only the same question', () => {
  it('the same word after a cd is resolved in the new directory too', () => {
    // `gatehouse/admin.token` in the project is an ordinary path; after the cd, the token.
    const word = 'gatehouse/admin.token';
    expect(classify({ action: 'run_command', command: `cat ${word}` })).toMatchObject({
      tier: 'auto',
    });
    expect(
      classify({ action: 'run_command', command: `cat ${word}; cd ~/.local/share && cat ${word}` }),
    ).toMatchObject({ tier: 'ask', rule: 'protected:gatehouse' });
  });

  it('a quoted word and the same word unquoted are different paths', () => {
    // Quoted, `$HOME/.ssh/config` is a folder named `$HOME` in the project; unquoted, the
    // person's SSH config.
    expect(classify({ action: 'run_command', command: "cat '$HOME/.ssh/config'" })).toMatchObject({
      tier: 'auto',
    });
    expect(
      classify({
        action: 'run_command',
        command: "cat '$HOME/.ssh/config'; cat $HOME/.ssh/config",
      }),
    ).toMatchObject({ tier: 'ask', rule: 'default:secret_path' });
  });
});

describe('what is prepared once follows the context it was prepared for', () => {
  it("a protected location is judged against the call's home, whichever home asked before", () => {
    const other = join(root, 'other-home');
    const write = { action: 'write_file', paths: [join(home, '.bashrc')] };
    expect(classify(write)).toMatchObject({ tier: 'ask', rule: 'protected:startup_config' });
    // Under another home the same file is an ordinary file of a folder outside it.
    expect(classify(write, { home: other })).toMatchObject({ tier: 'auto' });
    expect(classify(write)).toMatchObject({ tier: 'ask', rule: 'protected:startup_config' });
  });

  it('protected roots compare with or without case as the context says, on the same roots', () => {
    const upper = { action: 'run_command', command: 'cat ~/.LOCAL/SHARE/GATEHOUSE/admin.token' };
    expect(classify(upper)).toMatchObject({ tier: 'auto' });
    expect(classify(upper, { caseInsensitive: true })).toMatchObject({
      tier: 'ask',
      rule: 'protected:gatehouse',
    });
    expect(classify(upper)).toMatchObject({ tier: 'auto' });
  });

  it('secrets: a home with a trailing slash or backslashes, case folded, the home itself', () => {
    expect(secretKind('/home/u/.ssh/id_rsa', '/home/u/', false)).toMatch(/SSH/);
    expect(secretKind('C:/Users/U/.ssh/id_rsa', 'C:\\Users\\U', false)).toMatch(/SSH/);
    expect(secretKind('/Users/U/.SSH/ID', '/users/u', true)).toMatch(/SSH/);
    expect(secretKind('/Users/U/.SSH/ID', '/users/u', false)).toBeUndefined();
    expect(secretKind('/home/u/.sshx/id', '/home/u', false)).toBeUndefined();
    expect(secretKind('/home/u/.kube/config', '/home/u', false)).toMatch(/Kubernetes/);
    expect(secretKind('/home/u/.kube/config.d', '/home/u', false)).toBeUndefined();
    expect(secretKind('/home/u', '/home/u', false)).toBeUndefined();
    expect(secretKind('/.netrc', '/', false)).toMatch(/login/);
    expect(secretKind('/srv/app/.env.local', '/home/u', false)).toMatch(/environment/);
    expect(secretKind('/srv/app/.env.example', '/home/u', false)).toBeUndefined();
    expect(secretKind('/srv/tls/site.pem', '/home/u', false)).toMatch(/PEM/);
  });

  it('secrets by name anywhere: SSH private keys (not .pub), key stores, password files', () => {
    for (const name of ['id_rsa', 'id_ed25519', 'id_ecdsa_sk', 'id_rsa_deploy', 'id_ed25519.bak'])
      expect(secretKind(`/srv/app/deploy/${name}`, '/home/u', false), name).toMatch(/SSH/);
    for (const name of ['id_rsa.pub', 'id_ed25519_deploy.pub', 'id_token.ts', 'idx_rsa'])
      expect(secretKind(`/srv/app/${name}`, '/home/u', false), name).toBeUndefined();
    for (const name of ['cert.p12', 'a.pfx', 'release.jks', 'debug.keystore', 'k.ppk'])
      expect(secretKind(`/srv/app/${name}`, '/home/u', false), name).toMatch(/key store/);
    for (const name of ['.netrc', '.htpasswd', '.pgpass'])
      expect(secretKind(`/srv/app/${name}`, '/home/u', false), name).toMatch(/password/);
    for (const name of ['terraform.tfstate', 'terraform.tfstate.backup'])
      expect(secretKind(`/srv/infra/${name}`, '/home/u', false), name).toMatch(/Terraform/);
    expect(secretKind('/srv/infra/main.tf', '/home/u', false)).toBeUndefined();
    for (const path of ['.vault-token', '.azure/accessTokens.json', '.m2/settings.xml'])
      expect(secretKind(`/home/u/${path}`, '/home/u', false), path).toBeDefined();
  });
});
