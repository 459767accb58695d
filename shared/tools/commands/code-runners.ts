import { clip } from './options';
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
  const runner = COMMAND_RUNNERS[name];
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

const TAR_DANGER =
  /^--(to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rmt-command|rsh-command|index-file|transform|xform|owner-map|group-map|volno-file)/;

/** tar's dangerous long options, or a short cluster with -I (compress program) or -F (script). */
export function tarProblem(name: string, args: readonly string[]): string | undefined {
  const long = args.find((a) => TAR_DANGER.test(a));
  if (long) return `${name} ${clip(long)} runs a program or writes another file`;
  const clusters = args.filter(
    (a, i) => /^-[a-zA-Z]/.test(a) || (i === 0 && /^[a-zA-Z]+$/.test(a)),
  );
  for (const c of clusters) {
    const letters = c.replace(/^-/, '');
    for (const l of letters) {
      if (l === 'I' || l === 'F') return `tar -${l} runs a program`;
      if (/[fCTXbLgNK]/.test(l)) break; // the rest is this option's value
    }
  }
  return undefined;
}
