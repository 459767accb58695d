import type { ActionSpec } from './action-spec';
import { rankCandidates } from './action-spec';
import type { ShellCommand, ShellParser } from './shell-syntax';

/**
 * Maps a Bash tool command to Gatehouse actions: one candidate per simple command (including
 * those inside substitutions and `bash -c`), most restrictive first. `npm test && git push`
 * gives `git_push` then `run_tests`. Anything not recognised is `run_command`, which asks by
 * default; a construct whose effect cannot be known statically (see shell-analysis.ts) adds a
 * `run_command` candidate naming it, and the daemon makes any action carrying such a command
 * ask with the reason.
 */
export function bashActions(command: string, parser: ShellParser): ActionSpec[] {
  const analysis = parser.analyse(command);
  const candidates: ActionSpec[] = [];
  for (const cmd of analysis.commands) commandActions(cmd, candidates);
  for (const o of analysis.opaque)
    candidates.push({ action: 'run_command', target: `${o.construct}: ${o.text}` });
  const ranked = rankCandidates(candidates);
  return ranked.length ? ranked : [{ action: 'read_file', target: 'shell built-ins only' }];
}

const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

const base = (word: string): string => word.replace(/^.*\//, '');
const operands = (args: string[]): string[] => args.filter((a) => !a.startsWith('-'));
const first = (args: string[]): string | undefined => operands(args)[0];

/** Words that only modify how the next command runs. */
const WRAPPERS = new Set([
  'nohup',
  'time',
  'nice',
  'command',
  'exec',
  'stdbuf',
  'ionice',
  'builtin',
  'then',
  'do',
  'else',
  'elif',
  '!',
  '{',
  '}',
]);
const CONTROL_HEADERS = new Set(['for', 'case', 'select', 'function', 'done', 'fi', 'esac', 'in']);
const NOOP = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'cd',
  'pushd',
  'popd',
  'export',
  'set',
  'unset',
  'type',
  'which',
  'whereis',
  'date',
  'whoami',
  'id',
  'hostname',
  'uname',
  'printenv',
  'sleep',
  'wait',
  'test',
  '[',
  '[[',
  ']]',
  'read',
  'exit',
  'return',
  'history',
  'alias',
  'clear',
  'tput',
  'pwd',
  'local',
  'declare',
  'shift',
  'break',
  'continue',
  'nproc',
]);
const READERS = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'wc',
  'file',
  'stat',
  'du',
  'df',
  'diff',
  'cmp',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'jq',
  'yq',
  'sort',
  'uniq',
  'cut',
  'tr',
  'column',
  'nl',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'readlink',
  'realpath',
  'basename',
  'dirname',
  'bat',
  'comm',
  'paste',
  'fold',
  'rev',
  'tac',
  'base64',
  'awk',
  'gawk',
]);
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'git-grep']);
const LISTERS = new Set(['ls', 'tree', 'fd', 'fdfind', 'locate', 'exa', 'eza', 'll']);
const TEST_RUNNERS = new Set([
  'pytest',
  'py.test',
  'jest',
  'vitest',
  'mocha',
  'ava',
  'tap',
  'rspec',
  'phpunit',
  'tox',
  'nox',
  'ctest',
  'karma',
  'playwright',
  'cypress',
  'tsc',
  'eslint',
  'ruff',
  'mypy',
  'pyright',
  'flake8',
  'pylint',
  'shellcheck',
  'golangci-lint',
]);
const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'trash', 'trash-put']);
const WRITERS = new Set([
  'touch',
  'mkdir',
  'cp',
  'mv',
  'ln',
  'install',
  'tee',
  'truncate',
  'rsync',
  'dd',
  'unzip',
  'tar',
]);
const EDITORS = new Set(['patch', 'ed', 'ex']);
const FETCHERS = new Set([
  'curl',
  'wget',
  'http',
  'https',
  'httpie',
  'xh',
  'aria2c',
  'scp',
  'ssh',
  'sftp',
  'nc',
  'telnet',
]);
const MAILERS = new Set(['mail', 'mailx', 'sendmail', 'mutt', 'msmtp']);
const PERMISSIONS = new Set(['chmod', 'chown', 'chgrp', 'setfacl', 'chattr']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'fish']);
const JS_PMS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'cnpm']);
const SYSTEM_PMS = new Set([
  'apt',
  'apt-get',
  'yum',
  'dnf',
  'brew',
  'apk',
  'pacman',
  'zypper',
  'port',
  'snap',
  'choco',
  'winget',
  'conda',
  'mamba',
  'pipx',
  'gem',
]);
const PM_INSTALL = new Set([
  'install',
  'i',
  'add',
  'ci',
  'update',
  'upgrade',
  'up',
  'uninstall',
  'remove',
  'rm',
  'un',
  'reinstall',
  'link',
  'sync',
]);
const DEPLOYERS: Readonly<Record<string, RegExp>> = {
  kubectl:
    /^(apply|create|delete|rollout|scale|set|patch|replace|edit|label|annotate|drain|cordon)$/,
  helm: /^(install|upgrade|uninstall|rollback|delete)$/,
  terraform: /^(apply|destroy|import)$/,
  tofu: /^(apply|destroy|import)$/,
  pulumi: /^(up|destroy|update)$/,
  vercel: /^(deploy|--prod|promote|alias)$/,
  netlify: /^deploy$/,
  fly: /^(deploy|launch)$/,
  flyctl: /^(deploy|launch)$/,
  firebase: /^deploy$/,
  serverless: /^deploy$/,
  sls: /^deploy$/,
  wrangler: /^(deploy|publish)$/,
  railway: /^up$/,
  kamal: /^deploy$/,
  eb: /^deploy$/,
  cap: /^.*deploy.*$/,
  heroku: /^(releases:.*|container:release|deploy.*|ps:scale)$/,
  docker: /^push$/,
  podman: /^push$/,
  twine: /^upload$/,
  'ansible-playbook': /./,
};

function commandActions(cmd: ShellCommand, out: ActionSpec[]): void {
  for (const r of cmd.redirects) {
    if (HARMLESS_TARGETS.has(r.target) || !r.target) continue;
    if (r.kind === 'write') out.push({ action: 'write_file', paths: [r.target] });
    else if (r.kind === 'read' && !r.target.startsWith('<('))
      out.push({ action: 'read_file', paths: [r.target] });
  }
  let words = cmd.words;
  let elevated = false;
  // Peel wrappers: sudo, env, timeout, xargs, nohup, …
  for (;;) {
    const w = words[0];
    if (w === undefined) return;
    const b = base(w);
    if (WRAPPERS.has(b)) words = words.slice(1);
    else if (b === 'sudo' || b === 'doas') {
      elevated = true;
      words = skipOptions(words.slice(1), /^-[ugCDhprt]$/);
    } else if (b === 'env') {
      const rest = skipOptions(words.slice(1), /^-[uSC]$/);
      words = rest.slice(firstNonAssignment(rest));
    } else if (b === 'timeout') words = skipOptions(words.slice(1), /^-[sk]$/).slice(1);
    else if (b === 'xargs') words = skipOptions(words.slice(1), /^-[IEdLnPs]$/);
    else if (b === 'while' || b === 'until' || b === 'if') words = words.slice(1);
    else break;
  }
  if (elevated) out.push({ action: 'run_command', target: 'sudo' });
  const [program, ...args] = words as [string, ...string[]];
  const name = base(program);
  if (CONTROL_HEADERS.has(name)) return;
  // The commands of `bash -c '…'` and `eval '…'` are in the analysis already.
  if (SHELLS.has(name)) {
    if (args.some((a) => /^-\w*c\w*$/.test(a))) return;
    return void out.push({ action: 'run_command', target: name });
  }
  if (name === 'eval') return;
  const found = programActions(name, args);
  out.push(...found);
}

const clip = (s: string): string => (s.length > 200 ? `${s.slice(0, 199)}…` : s);

/** The arguments of a Gatehouse CLI run (`gatehouse …`, `node …/gatehouse.js …`), else undefined. */
function gatehouseArgs(name: string, args: string[]): string[] | undefined {
  if (name === 'gatehouse' || name === 'gatehouse.js') return args;
  if ((name === 'node' || name === 'nodejs') && /(^|\/)gatehouse(\.m?js)?$/.test(args[0] ?? ''))
    return args.slice(1);
  return undefined;
}

function firstNonAssignment(words: string[]): number {
  const i = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  return i === -1 ? words.length : i;
}

/** Drops leading options; options matching `withValue` also drop the word after them. */
function skipOptions(words: string[], withValue: RegExp): string[] {
  let i = 0;
  while (i < words.length && words[i]!.startsWith('-')) i += withValue.test(words[i]!) ? 2 : 1;
  return words.slice(i);
}

function programActions(name: string, args: string[]): ActionSpec[] {
  const files = operands(args);
  const withPaths = (action: string, paths = files): ActionSpec =>
    paths.length ? { action, paths } : { action };
  if (NOOP.has(name)) return [];
  const gatehouse = gatehouseArgs(name, args);
  // Installing or removing an agent's hook decides whether Gatehouse sees its calls at all.
  if (gatehouse?.[0] === 'hook' && gatehouse.some((a) => a === '--install' || a === '--uninstall'))
    return [
      { action: 'change_gatehouse_policy', target: clip(`gatehouse ${gatehouse.join(' ')}`) },
    ];
  if (name === 'git') return [gitAction(args)];
  if (name === 'gh') return [ghAction(args)];
  if (JS_PMS.has(name)) return [jsPackageManagerAction(name, args)];
  if (name === 'npx' || name === 'bunx' || name === 'pnpx') return [npxAction(args)];
  if (name === 'pip' || name === 'pip3' || name === 'uv' || name === 'poetry' || name === 'pipenv')
    return [pythonPmAction(name, args)];
  if (SYSTEM_PMS.has(name)) {
    return PM_INSTALL.has(first(args) ?? '')
      ? [{ action: 'install_package', target: `${name} ${files.slice(1).join(' ')}`.trim() }]
      : [{ action: 'run_command', target: name }];
  }
  if (
    name === 'cargo' ||
    name === 'go' ||
    name === 'dotnet' ||
    name === 'deno' ||
    name === 'mix' ||
    name === 'swift'
  )
    return [toolchainAction(name, args)];
  if (
    name === 'make' ||
    name === 'just' ||
    name === 'rake' ||
    name === 'mvn' ||
    name === 'gradle' ||
    name === 'gradlew'
  )
    return [taskRunnerAction(name, args)];
  if (name === 'python' || name === 'python3') {
    const m = args.indexOf('-m');
    if (m >= 0 && /^(pytest|unittest|mypy|ruff|flake8|pylint)$/.test(args[m + 1] ?? ''))
      return [{ action: 'run_tests' }];
    if (m >= 0 && args[m + 1] === 'pip') return [pythonPmAction('pip', args.slice(m + 2))];
    return [{ action: 'run_command', target: name }];
  }
  if (TEST_RUNNERS.has(name)) return [{ action: 'run_tests', target: name }];
  if (name === 'prettier' || name === 'black' || name === 'gofmt' || name === 'rustfmt') {
    return args.some((a) => /^(--write|-w|--fix)$/.test(a)) || name === 'black'
      ? [withPaths('edit_file')]
      : [{ action: 'run_tests', target: name }];
  }
  if (name === 'find') {
    if (
      args.includes('-delete') ||
      args.some(
        (a, i) => (a === '-exec' || a === '-execdir') && DELETERS.has(base(args[i + 1] ?? '')),
      )
    ) {
      return [withPaths('delete_files', files.slice(0, 1))];
    }
    return args.includes('-exec') || args.includes('-execdir')
      ? [{ action: 'run_command', target: 'find -exec' }]
      : [{ action: 'list_files' }];
  }
  if (DELETERS.has(name)) return [withPaths('delete_files')];
  if (name === 'sed' || name === 'perl') {
    return args.some((a) => /^(-i|--in-place)/.test(a) || /^-\w*i/.test(a))
      ? [withPaths('edit_file', files.slice(1))]
      : [{ action: 'read_file' }];
  }
  if (EDITORS.has(name)) return [withPaths('edit_file')];
  if (WRITERS.has(name))
    return [
      withPaths(
        'write_file',
        name === 'dd' ? args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)) : files,
      ),
    ];
  if (READERS.has(name)) return [withPaths('read_file')];
  if (SEARCHERS.has(name)) return [{ action: 'search_files' }];
  if (LISTERS.has(name)) return [withPaths('list_files')];
  if (FETCHERS.has(name)) {
    const url = args.find((a) => /^[a-z]+:\/\//i.test(a)) ?? files[0];
    return [url ? { action: 'web_fetch', target: url } : { action: 'web_fetch' }];
  }
  if (MAILERS.has(name))
    return [{ action: 'send_email', ...(files[0] ? { target: files[0] } : {}) }];
  if (PERMISSIONS.has(name)) return [withPaths('modify_permissions', files.slice(1))];
  if (name === 'systemctl' || name === 'service' || name === 'launchctl')
    return [{ action: 'start_service', target: args.join(' ') }];
  if (name === 'gcloud' || name === 'aws' || name === 'az') return [cloudAction(name, args)];
  const deploy = DEPLOYERS[name];
  if (deploy) {
    const sub = name === 'vercel' && !args.length ? '--prod' : args.find((a) => deploy.test(a));
    if (sub !== undefined || name === 'ansible-playbook')
      return [{ action: 'deploy', target: `${name} ${args.join(' ')}`.trim() }];
    return [{ action: 'run_command', target: name }];
  }
  return [{ action: 'run_command', target: name }];
}

function gitAction(args: string[]): ActionSpec {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-'))
    i += /^(-C|-c|--git-dir|--work-tree|--namespace)$/.test(args[i]!) ? 2 : 1;
  const sub = args[i] ?? '';
  const rest = args.slice(i + 1);
  const restOps = operands(rest);
  switch (sub) {
    case 'push':
      return { action: 'git_push', target: restOps.join(' ') || 'default remote' };
    case 'commit':
      return { action: 'git_commit' };
    case 'status':
    case 'rev-parse':
    case 'ls-files':
    case 'ls-tree':
    case 'cat-file':
    case 'describe':
    case 'remote':
      return sub === 'remote' && /^(add|remove|rm|set-url|rename)$/.test(restOps[0] ?? '')
        ? { action: 'modify_config', target: 'git remote' }
        : { action: 'git_status' };
    case 'log':
    case 'show':
    case 'reflog':
    case 'blame':
    case 'shortlog':
      return { action: 'git_log' };
    case 'diff':
      return { action: 'git_diff' };
    case 'grep':
      return { action: 'search_files' };
    case 'branch':
      if (rest.some((a) => /^(-d|-D|--delete|-m|-M|--move|-f|--force)$/.test(a)))
        return { action: 'run_command', target: `git branch ${rest.join(' ')}` };
      return restOps.length
        ? { action: 'create_branch', target: restOps[0]! }
        : { action: 'git_status' };
    case 'checkout':
    case 'switch':
      if (rest.some((a) => /^(-b|-B|-c|-C|--create)$/.test(a)))
        return { action: 'create_branch', ...(restOps[0] ? { target: restOps[0] } : {}) };
      return { action: 'run_command', target: `git ${sub} ${rest.join(' ')}`.trim() };
    case 'worktree':
      return restOps[0] === 'add'
        ? { action: 'create_worktree', ...(restOps[1] ? { target: restOps[1] } : {}) }
        : { action: 'git_status' };
    case 'rm':
      return restOps.length
        ? { action: 'delete_files', paths: restOps }
        : { action: 'delete_files' };
    case 'clean':
      return { action: 'delete_files', target: 'git clean' };
    case 'config':
      return rest.some((a) => /^(--get|--list|-l|--get-all)$/.test(a))
        ? { action: 'git_status' }
        : { action: 'modify_config', target: 'git config' };
    default:
      return { action: 'run_command', target: `git ${sub}`.trim() };
  }
}

function ghAction(args: string[]): ActionSpec {
  const [group = '', verb = ''] = operands(args);
  const target = `gh ${group} ${verb}`.trim();
  if (group === 'pr' && verb === 'create') return { action: 'create_pull_request', target };
  if (group === 'pr' && verb === 'merge') return { action: 'git_push', target };
  if (group === 'issue' && verb === 'create') return { action: 'create_issue', target };
  if ((group === 'pr' || group === 'issue') && /^(comment|review|close|reopen|edit)$/.test(verb))
    return { action: 'create_comment', target };
  if (group === 'release' && verb === 'create') return { action: 'deploy', target };
  if (/^(view|list|status|diff|checks|search)$/.test(verb) || group === 'search' || group === 'api')
    return { action: 'web_fetch', target };
  return { action: 'run_command', target };
}

function jsPackageManagerAction(name: string, args: string[]): ActionSpec {
  const ops = operands(args);
  const sub = ops[0] ?? (name === 'yarn' || name === 'bun' ? 'install' : '');
  const script = sub === 'run' || sub === 'run-script' ? (ops[1] ?? '') : sub;
  if (PM_INSTALL.has(sub))
    return { action: 'install_package', target: `${name} ${ops.join(' ')}`.trim() };
  if (sub === 'publish' || /deploy|release|publish/.test(script))
    return { action: 'deploy', target: `${name} ${ops.join(' ')}` };
  if (
    /^(test|t|tst)$/.test(script) ||
    /^(test|lint|typecheck|check|type-check|tsc|vitest|jest)(:|$)/.test(script)
  )
    return { action: 'run_tests', target: `${name} ${ops.join(' ')}` };
  if (sub === 'exec' || sub === 'dlx' || sub === 'x') return npxAction(ops.slice(1));
  if (/^(ls|list|outdated|view|info|why|audit|config|help|--version|-v)$/.test(sub))
    return { action: 'read_file', target: `${name} ${sub}` };
  return { action: 'run_command', target: `${name} ${ops.join(' ')}`.trim() };
}

function npxAction(args: string[]): ActionSpec {
  const tool = base(operands(args)[0] ?? '');
  if (TEST_RUNNERS.has(tool)) return { action: 'run_tests', target: tool };
  if (tool === 'prettier' && !args.includes('--write'))
    return { action: 'run_tests', target: tool };
  return { action: 'run_command', target: `npx ${tool}`.trim() };
}

function pythonPmAction(name: string, args: string[]): ActionSpec {
  const ops = operands(args);
  const sub = name === 'uv' && ops[0] === 'pip' ? (ops[1] ?? '') : (ops[0] ?? '');
  if (/^(install|add|remove|uninstall|sync|update|upgrade|lock)$/.test(sub))
    return { action: 'install_package', target: `${name} ${ops.join(' ')}` };
  if (name === 'uv' && sub === 'run' && /^(pytest|mypy|ruff)$/.test(ops[1] ?? ''))
    return { action: 'run_tests', target: `uv run ${ops[1]}` };
  if (/^(list|show|freeze|check)$/.test(sub))
    return { action: 'read_file', target: `${name} ${sub}` };
  return { action: 'run_command', target: `${name} ${sub}`.trim() };
}

function toolchainAction(name: string, args: string[]): ActionSpec {
  const sub = operands(args)[0] ?? '';
  if (/^(test|check|clippy|vet|fmt-check)$/.test(sub))
    return { action: 'run_tests', target: `${name} ${sub}` };
  if (
    (name === 'cargo' && /^(add|install|remove|update)$/.test(sub)) ||
    (name === 'go' && /^(get|install)$/.test(sub))
  ) {
    return { action: 'install_package', target: `${name} ${operands(args).join(' ')}` };
  }
  if ((name === 'cargo' && sub === 'publish') || (name === 'dotnet' && sub === 'nuget'))
    return { action: 'deploy', target: `${name} ${sub}` };
  if (name === 'dotnet' && sub === 'add')
    return { action: 'install_package', target: `${name} ${operands(args).join(' ')}` };
  return { action: 'run_command', target: `${name} ${sub}`.trim() };
}

function taskRunnerAction(name: string, args: string[]): ActionSpec {
  const targets = operands(args);
  if (targets.some((t) => /deploy|release|publish/.test(t)))
    return { action: 'deploy', target: `${name} ${targets.join(' ')}` };
  if (targets.length && targets.every((t) => /^(test|tests|check|lint|verify|spec)$/.test(t)))
    return { action: 'run_tests', target: `${name} ${targets.join(' ')}` };
  return { action: 'run_command', target: `${name} ${targets.join(' ')}`.trim() };
}

function cloudAction(name: string, args: string[]): ActionSpec {
  const ops = operands(args);
  const joined = ops.join(' ');
  if (
    ops.includes('deploy') ||
    ops.some((o) => /^(update-|create-|delete-|put-)/.test(o)) ||
    (ops[0] === 's3' && /^(cp|sync|mv|rm)$/.test(ops[1] ?? ''))
  ) {
    return { action: 'deploy', target: `${name} ${joined}` };
  }
  return { action: 'web_fetch', target: `${name} ${ops.slice(0, 2).join(' ')}` };
}
