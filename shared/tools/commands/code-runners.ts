import type { ActionSpec } from '../action-spec';
import { clip, dangerousLong, own } from './options';
import { PYTHON_RUNNER_MODULES, runnerProblem } from './runners';

/** Interpreters: any code they are given (`-c`, `-e`, `-`, stdin, a script file) is unproven. */
export const INTERPRETERS: ReadonlySet<string> = new Set([
  'python',
  'python2',
  'python3',
  'pypy',
  'pypy3',
  'node',
  'nodejs',
  'deno',
  'bun',
  'ruby',
  'irb',
  'perl',
  'php',
  'lua',
  'luajit',
  'Rscript',
  'R',
  'julia',
  'tclsh',
  'wish',
  'expect',
  'osascript',
  'pwsh',
  'powershell',
  'groovy',
  'scala',
  'kotlin',
  'java',
  'jshell',
  'ts-node',
  'tsx',
  'esno',
  'swift',
  'guile',
  'racket',
  'sbcl',
  'clisp',
  'gdb',
  'lldb',
]);

/** Programs that run their arguments (or their input) as commands. */
const COMMAND_RUNNERS: Readonly<Record<string, string>> = {
  watch: 'watch runs its arguments as a shell command',
  parallel: 'parallel runs commands built from its arguments and input',
  script: 'script runs a shell or the command given with -c',
  unbuffer: 'unbuffer runs its arguments through expect',
  chroot: 'chroot runs a command in another root',
  setsid: 'setsid runs a command',
  flock: 'flock runs a command',
  runuser: 'runuser runs a command as another user',
  su: 'su runs a shell as another user',
  nsenter: 'nsenter runs a command in other namespaces',
  unshare: 'unshare runs a command',
  strace: 'strace runs a command',
  ltrace: 'ltrace runs a command',
  valgrind: 'valgrind runs a program',
  entr: 'entr runs a command when files change',
  nodemon: 'nodemon runs a command when files change',
  'dbus-run-session': 'dbus-run-session runs a command',
  'xvfb-run': 'xvfb-run runs a command',
  busybox: 'busybox runs any of its applets',
  at: 'at runs commands later',
  batch: 'batch runs commands later',
  crontab: 'crontab schedules commands',
  systemd_run: 'systemd-run runs a command',
  'systemd-run': 'systemd-run runs a command',
  socat: 'socat can run a program and open connections',
  ncat: 'ncat can run a program on a connection',
  tmux: 'tmux runs commands in a session',
  screen: 'screen runs commands in a session',
};

/** Why a call of a program that runs code of its own is not proven harmless, if it is one. */
export function codeRunnerProblem(name: string, args: readonly string[]): string | undefined {
  const runner = own(COMMAND_RUNNERS, name);
  if (runner) return runner;
  if (INTERPRETERS.has(name)) return interpreterProblem(name, args);
  if (/^(vim?|nvim|view|vimdiff|ex|gvim|emacs|emacsclient|nano|code|subl|helix|hx|kak)$/.test(name))
    return editorProblem(name, args);
  return remoteToolProblem(name, args);
}

function interpreterProblem(name: string, args: readonly string[]): string | undefined {
  if (args.length === 1 && /^(--version|-V|-v|--help|-h)$/.test(args[0]!) && name !== 'perl')
    return undefined;
  if (/^(python|python2|python3|pypy3?)$/.test(name)) {
    const m = args.indexOf('-m');
    const before = m < 0 ? args : args.slice(0, m);
    const code = before.find((a) => !/^-[BuqE]+$/.test(a));
    if (m >= 0 && code === undefined && PYTHON_RUNNER_MODULES.test(args[m + 1] ?? ''))
      return runnerProblem(args[m + 1]!, args.slice(m + 2));
    if (m >= 0 && code === undefined && args[m + 1] === 'pip') return undefined;
  }
  const code = args.find((a) => /^-(c|e|E|r|-eval|-print|p|x|-require|-import|-loader)$/.test(a));
  if (code) return `${name} ${code} runs code given on the command line`;
  const script = args.find((a) => !a.startsWith('-'));
  return script
    ? `${name} runs ${clip(script)}, a program Gatehouse does not read`
    : `${name} runs the code it is given on its input`;
}

function editorProblem(name: string, args: readonly string[]): string | undefined {
  const cmd = args.find((a) =>
    /^(\+.*|-c|--cmd|-S|--eval|-l|--load|-f|--funcall|-x|--execute|--extensionDevelopmentPath.*|--install-extension.*)$/.test(
      a,
    ),
  );
  if (cmd) return `${name} ${clip(cmd)} runs editor commands, which can run a shell`;
  return undefined;
}

/** ssh/scp/rsync/zip/tar options that run a local program. */
function remoteToolProblem(name: string, args: readonly string[]): string | undefined {
  const find = (re: RegExp): string | undefined => args.find((a) => re.test(a));
  if (name === 'ssh' || name === 'scp' || name === 'sftp') {
    const opt = args.findIndex(
      (a, i) =>
        /^-o/.test(a) &&
        /(Proxy|LocalCommand|KnownHostsCommand|Match|Include)/i.test(
          a.length > 2 ? a : (args[i + 1] ?? ''),
        ),
    );
    if (opt >= 0) return `${name} -o ProxyCommand/LocalCommand runs a local command`;
    const bad = find(/^-[a-zA-Z]*[FSD]/);
    if (bad) return `${name} ${clip(bad)} reads another configuration or runs a program`;
    return undefined;
  }
  if (name === 'rsync') {
    const bad = find(
      /^(-[a-zA-Z]*e|--rsh|--rsync-path|-M|--remote-option|--filter|-f|--info-script)/,
    );
    return bad ? `rsync ${clip(bad)} runs a program` : undefined;
  }
  if (name === 'zip') {
    const bad = find(/^(-TT|--unzip-command|-[a-zA-Z]*T)/);
    return bad ? `zip ${clip(bad)} runs a program to test the archive` : undefined;
  }
  if (name === 'tar' || name === 'bsdtar' || name === 'gtar') return tarProblem(name, args);
  return undefined;
}

/** tar's long options that run a program or write a file other than the archive's members. */
const TAR_DANGER = [
  'to-command',
  'use-compress-program',
  'checkpoint-action',
  'info-script',
  'new-volume-script',
  'rmt-command',
  'rsh-command',
  'index-file',
  'transform',
  'xform',
  'owner-map',
  'group-map',
  'volno-file',
];

/** tar's short options as one string: the leading cluster (`tzf`, `-tzf`) and each `-x`. */
const tarShorts = (args: readonly string[]): string =>
  args
    .filter((a, i) => /^-[a-zA-Z]/.test(a) || (i === 0 && /^[a-zA-Z]+$/.test(a)))
    .map((a) => a.replace(/^-/, ''))
    .join(' ');

/** tar listing an archive (`-t`, `--list`) reads it; any other mode writes files. */
export function tarAction(args: readonly string[]): ActionSpec {
  return tarLists(args) ? { action: 'read_file', target: 'tar --list' } : { action: 'write_file' };
}

function tarLists(args: readonly string[]): boolean {
  const shorts = tarShorts(args);
  const lists = args.includes('--list') || /t/.test(shorts.replace(/f\S*/g, ''));
  const writes =
    /[xcruAd]/.test(shorts.replace(/f\S*/g, '')) ||
    args.some((a) =>
      /^--(extract|get|create|append|update|delete|concatenate|catenate|diff|compare)$/.test(a),
    );
  return lists && !writes;
}

/** Long options of a tar listing that only choose the archive, its compression and the output. */
const TAR_LIST_OPTION =
  /^--(list|file|verbose|gzip|gunzip|ungzip|bzip2|xz|zstd|lzma|lzip|lzop|auto-compress|wildcards|no-wildcards|anchored|no-anchored|exclude|ignore-case|numeric-owner|full-time|utc|force-local|occurrence|strip-components|quoting-style|block-number|totals|null|files-from|no-recursion|recursion)(=|$)/;

/**
 * tar's options that run a program or write another file, whatever the mode; for a
 * listing (the only auto use), every option must be on the listing list and the archive
 * must not be `host:file` (tar reaches such an archive through rsh/ssh).
 */
export function tarProblem(name: string, args: readonly string[]): string | undefined {
  const long = args.find((a) => dangerousLong(a, TAR_DANGER, ['checkpoint', 'owner', 'group']));
  if (long) return `${name} ${clip(long)} runs a program or writes another file`;
  for (const c of tarShorts(args).split(' ')) {
    for (const l of c) {
      if (l === 'I' || l === 'F') return `${name} -${l} runs a program`;
      if (/[fCTXbLgNKV]/.test(l)) break; // the rest is this option's value
    }
  }
  if (!tarLists(args)) return undefined;
  const bad = args.find(
    (a, i) =>
      (a.startsWith('--') && !TAR_LIST_OPTION.test(a)) ||
      (/^-[a-zA-Z]/.test(a) && !/^-[tvzjJaZ]*f?$|^-[tvzjJaZ]*f\S+$/.test(a)) ||
      (i === 0 && /^[a-zA-Z]+$/.test(a) && !/^[tvzjJaZ]*f?$/.test(a)),
  );
  if (bad) return `${name} ${clip(bad)} is not an option known to be harmless for a listing`;
  if (args.includes('--force-local')) return undefined;
  const archive = tarArchive(args);
  return archive?.includes(':')
    ? `${name} reaches ${clip(archive)} on another host (host:file archive)`
    : undefined;
}

/** The archive a tar call names: `-f X`, `-fX`, `--file=X`, or the word after a `…f` cluster. */
function tarArchive(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--file=')) return a.slice(7);
    if (a === '--file') return args[i + 1];
    const cluster = /^-?[a-zA-Z]*f(\S*)$/.exec(i === 0 || a.startsWith('-') ? a : '');
    if (cluster && !a.startsWith('--')) return cluster[1] || args[i + 1];
  }
  return undefined;
}
