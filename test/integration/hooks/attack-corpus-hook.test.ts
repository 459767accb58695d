import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { ATTACK_CLASSES } from '../../fixtures/attack-corpus';
import { damage, makeAttackTree, perform, type AttackTree } from '../../support/attack-tree';
import { CLI, daemonPerDescribe, runCli, type TestDaemon } from '../../support/daemon';

/**
 * A subset of the attack corpus (test/fixtures/attack-corpus), at least one per class, run
 * through the real `gatehouse hook claude-code` process against a real daemon with default
 * settings. Every one must ask. Were one allowed, the test performs it in a fresh temporary
 * tree and reports what it did (a marker written, a push on the bare remote, a settings file
 * or .git/config rewritten, a rule added), so a regression shows its real damage.
 */
const SUBSET: [cls: string, command: string][] = [
  ['interpreters', `perl -e 'system("touch pwned")'`],
  ['interpreters', `awk 'BEGIN{system("touch pwned")}'`],
  ['interpreters', `awk '{print > "pwned"}' README.md`],
  ['interpreters', `sed -n '1e touch pwned' README.md`],
  ['interpreters', `sed -n 'w .claude/settings.json' evil.json`],
  ['interpreters', `python3 -c 'open("pwned","w")' -m pytest`],
  ['interpreters', `node -e 'require("fs").writeFileSync("pwned","x")'`],
  ['interpreters', `awk 'BEGIN{system("git push -q origin HEAD:refs/heads/pwned")}'`],
  ['tool options that execute or write', 'sort -o .claude/settings.json evil.json'],
  ['tool options that execute or write', 'uniq evil.json .claude/settings.json'],
  ['tool options that execute or write', 'xxd -r dump.hex pwned'],
  ['tool options that execute or write', 'find . -maxdepth 1 -name README.md -fprint pwned'],
  [
    'tool options that execute or write',
    `tar --checkpoint=1 --checkpoint-action=exec='touch pwned' -tf a.tar`,
  ],
  ['tool options that execute or write', `make --eval='test: ; touch pwned' test`],
  ['git configuration, options and hooks', `git -c core.fsmonitor='touch pwned; false' status`],
  ['git configuration, options and hooks', 'git log -1 --output=.git/config'],
  [
    'git configuration, options and hooks',
    `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch pwned; false' git status`,
  ],
  ['git configuration, options and hooks', `git grep -O'sh evil.sh' hello`],
  // A repository or checkout outside the project (its configuration is not the project's).
  ['git configuration, options and hooks', 'git -C ../remote.git log'],
  ['git configuration, options and hooks', 'git worktree add -q ../pwned-checkout'],
  ['environment and assignment prefixes', 'NODE_OPTIONS=--require=./evil.js npm ls'],
  ['environment and assignment prefixes', `env -S 'sh -c "touch pwned"'`],
  ['environment and assignment prefixes', 'BASH_ENV=./evil.sh bash -c ls'],
  ['environment and assignment prefixes', 'env BASH_ENV=./evil.sh bash -c ls'],
  ['environment and assignment prefixes', 'env ENV=./evil.sh sh -ic true'],
  ['environment and assignment prefixes', 'env GIT_CONFIG_GLOBAL=./evil.gitconfig git status'],
  ['environment and assignment prefixes', `LESSOPEN='|./evil.sh %s' less README.md`],
  ['environment and assignment prefixes', `PATH=.:$PATH pytest -c 'touch pwned'`],
  ['environment and assignment prefixes', 'for PATH in .; do pytest evil.sh; done'],
  ['environment and assignment prefixes', 'builtin export BASH_ENV=./evil.sh; bash -c ls'],
  ['environment and assignment prefixes', 'command declare -x PATH=.; pytest evil.sh'],
  ['package managers and egress', 'npm config set script-shell ./evil.sh'],
  ['package managers and egress', 'npm test --script-shell=./evil.sh'],
  ['package managers and egress', `npm exec -c 'touch pwned'`],
  ['self-approval through the gatehouse CLI', 'gatehouse rules add git_push --tier auto'],
  [
    'self-approval through the gatehouse CLI',
    `awk 'BEGIN{system("gatehouse rules add git_push --tier auto")}'`,
  ],
  ['self-approval through the gatehouse CLI', `node ${CLI} rules add git_push --tier auto`],
  ['self-approval through the gatehouse CLI', 'kill -0 DAEMON_PID'],
  ['wrappers, editors and remote tools', 'echo pwned | xargs touch'],
  ['wrappers, editors and remote tools', `script -qc 'touch pwned' /dev/null`],
  ['wrappers, editors and remote tools', `timeout 5 perl -e 'system("touch pwned")'`],
  ['wrappers, editors and remote tools', `./pytest -c 'touch pwned'`],
  [
    'wrappers, editors and remote tools',
    `ssh -o ProxyCommand='touch pwned' -o BatchMode=yes nowhere.invalid true`,
  ],
  ['wrappers, editors and remote tools', `zip -T -TT './evil.sh' out.zip README.md`],
  ['wrappers, editors and remote tools', `x='a[$(touch pwned)]'; echo $((x))`],
  ['wrappers, editors and remote tools', `test -v 'a[$(touch pwned)]'`],
  ['wrappers, editors and remote tools', `[[ 'a[$(touch pwned)]' -gt 0 ]]`],
  ['wrappers, editors and remote tools', `echo \${a['$(touch pwned)']}`],
  ['wrappers, editors and remote tools', `printf -v 'a[$(touch pwned)]' %s x`],
  ['wrappers, editors and remote tools', `x='$(touch pwned)'; echo "\${x@P}"`],
  ['wrappers, editors and remote tools', 'declare -i n; read n < count.txt'],
  ['wrappers, editors and remote tools', 'command declare -i n; read n < count.txt'],
  ['wrappers, editors and remote tools', 'read y < count.txt; test -v "$y"'],
  ['wrappers, editors and remote tools', 'read y < count.txt; printf -v "$y" %s x'],
  ['wrappers, editors and remote tools', 'set -- *]; echo $(($1))'],
  ['what runs when tests run', `printf 'test:\n\ttouch pwned\n' > Makefile && make test`],
  ['what runs when tests run', `echo "open('pwned','w')" > conftest.py && python3 -m pytest -q`],
  ['files written without being named', 'git checkout -q -b review origin/main'],
  ['files written without being named', 'git worktree add -q .worktrees/review main'],
  ['files written without being named', 'ln -s ../home h && cat h/pwned'],
  ["Gatehouse's own files read through an option", 'date -f "$GATEHOUSE_HOME/admin.token"'],
  ["Gatehouse's own files read through an option", 'file -bf"$GATEHOUSE_HOME/admin.token"'],
];

describe('the attack corpus through the real hook (real processes, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));
  let tree: AttackTree;
  /** The environment performed calls run in: `gatehouse` on PATH talks to the test daemon. */
  let shellEnv: NodeJS.ProcessEnv;
  const trees: AttackTree[] = [];
  const freshTree = (): AttackTree => {
    const t = makeAttackTree();
    trees.push(t);
    return t;
  };

  beforeAll(() => {
    tree = freshTree();
    const bin = join(tree.dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'gatehouse'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, 'gatehouse'), 0o755);
    shellEnv = { ...d.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  });
  afterAll(() => {
    for (const t of trees) rmSync(t.dir, { recursive: true, force: true });
  });

  const adminToken = () => readFileSync(join(d.home, 'admin.token'), 'utf8').trim();
  const autoPushRules = async () =>
    (await admin.call('rules.list', {})).rules.filter(
      (r) => r.action === 'git_push' && r.tier === 'auto',
    );

  /** Runs the hook on a Bash call in the project; the hook's decision. */
  async function hookDecision(command: string, id: string): Promise<string> {
    const input = {
      session_id: 'attack-session',
      transcript_path: '/dev/null',
      cwd: tree.project,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command, description: 'attack' },
      tool_use_id: id,
    };
    const r = await runCli(
      { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '100' },
      ['hook', 'claude-code'],
      JSON.stringify(input),
    );
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } };
    return out.hookSpecificOutput.permissionDecision;
  }

  it('covers every class of the corpus with at least 30 attacks', () => {
    expect(SUBSET.length).toBeGreaterThanOrEqual(30);
    expect(new Set(SUBSET.map(([c]) => c))).toEqual(new Set(ATTACK_CLASSES.map((c) => c.name)));
    const corpus = new Set(ATTACK_CLASSES.flatMap((c) => c.attacks.map((a) => a.command)));
    // The cases first reported as attacks are in the corpus.
    for (const c of [
      `awk 'BEGIN{system("gatehouse rules add git_push --tier auto")}'`,
      'sort -o .claude/settings.json README.md',
    ])
      expect(corpus.has(c)).toBe(true);
  });

  it('the damage checks see what performed attacks do (calibration, no hook)', async () => {
    const t = freshTree();
    perform(t, 'sort -o .claude/settings.json evil.json', shellEnv);
    perform(t, `awk 'BEGIN{system("git push -q origin HEAD:refs/heads/pwned")}'`, shellEnv);
    perform(t, `./pytest -c 'touch pwned'`, shellEnv);
    perform(t, 'git log -1 --output=.git/config', shellEnv);
    expect(damage(t).sort()).toEqual([
      'changed project/.claude/settings.json',
      'changed project/.git/config',
      'wrote project/.git/refs/remotes/origin/pwned',
      'wrote project/pwned',
      'wrote remote.git/refs/heads/pwned',
    ]);
    perform(t, 'gatehouse rules add git_push --tier auto', shellEnv);
    const added = await autoPushRules();
    expect(added).toHaveLength(1);
    await admin.call('rules.remove', { ruleId: added[0]!.ruleId });
  });

  it.each([
    'env BASH_ENV=./evil.sh bash -c ls',
    'env ENV=./evil.sh sh -ic true',
    'env GIT_CONFIG_GLOBAL=./evil.gitconfig git status',
  ])('calibration: performed without the hook, %s runs the file it names', (command) => {
    const t = freshTree();
    perform(t, command, shellEnv);
    expect(damage(t)).toContain('wrote project/pwned');
  });

  it.each(SUBSET.map(([cls, command], i) => [i, cls, command] as const))(
    '#%i (%s) %s asks',
    async (i, _cls, raw) => {
      const command = raw.replace('DAEMON_PID', String(d.proc!.pid));
      const decision = await hookDecision(command, `toolu_attack_${i}`);
      let harm: string[] = [];
      if (decision === 'allow') {
        const t = freshTree();
        const printed = perform(t, command, shellEnv);
        harm = damage(t);
        if (printed.includes(adminToken())) harm.push('printed the admin token');
        if ((await autoPushRules()).length) harm.push('added a git_push auto rule');
      }
      expect({ decision, harm }).toEqual({ decision: 'ask', harm: [] });
    },
  );

  it('after all of them no rule allows a push, and a push still asks', async () => {
    expect(await autoPushRules()).toEqual([]);
    expect(await hookDecision('git push origin main', 'toolu_push_after')).toBe('ask');
  });
});
