import { awkProgramProblem } from './awk-program';
import { jqProgramProblem, yqExpressionProblem } from './jq-program';
import {
  byOptions,
  checkArgs,
  looseByText,
  options,
  type CheckedArgs,
  type KnownProgram,
  type Looseness,
  type OptionTable,
} from './options';
import { sedScriptProblem } from './sed-script';

/** diff's options; none runs or writes anything (`-X FILE` is a file it reads). */
export const DIFF: OptionTable = {
  looseOk: true,
  flags:
    '-u -c -q -r -N -a -b -B -w -i -y -s -E -Z -t -T -p -d --brief --recursive --unified --side-by-side --ignore-all-space --ignore-space-change --ignore-blank-lines --ignore-case --color --new-file --strip-trailing-cr --minimal --report-identical-files --text --expand-tabs --show-c-function --suppress-common-lines',
  values: '-U -C -W -x -X -I -F -L --label --exclude --exclude-from --width --color --context',
  reads: '-X --exclude-from',
  numeric: true,
};

const SUMS = byOptions('sha256sum', 'read_file', {
  looseOk: true,
  flags: '-b -t -c -w -z --binary --text --check --quiet --status --strict --warn --tag --zero',
});

/** Programs that read files and print what they find; only the listed options are harmless. */
export const TEXT_TOOLS: Readonly<Record<string, KnownProgram>> = {
  cat: byOptions('cat', 'read_file', {
    looseOk: true,
    flags:
      '-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --number --squeeze-blank --show-ends --show-tabs --show-nonprinting',
  }),
  head: byOptions('head', 'read_file', {
    looseOk: true,
    flags: '-q -v -z --quiet --silent --verbose --zero-terminated',
    values: '-n -c --lines --bytes',
    numeric: true,
  }),
  tail: byOptions('tail', 'read_file', {
    looseOk: true,
    flags: '-q -v -z -f -F --quiet --silent --verbose --zero-terminated --follow --retry',
    values: '-n -c -s --lines --bytes --sleep-interval --pid',
    numeric: true,
  }),
  less: byOptions(
    'less',
    'read_file',
    {
      flags: '-R -r -N -n -S -F -X -i -I -M -m -E -e -f -s -q -Q -g -G -w -W -K -L',
      values: '-x -j -z -b -h -y -P',
      danger: {
        '-o': 'less -o writes a log file',
        '-O': 'less -O writes a log file',
        '-k': 'less -k reads key bindings that can run commands',
        '--lesskey-file': 'less --lesskey-file reads key bindings that can run commands',
      },
    },
    (c) =>
      c.operands.some((o) => o.startsWith('+'))
        ? 'less +command runs a less command, which can run a shell'
        : undefined,
  ),
  more: byOptions(
    'more',
    'read_file',
    { flags: '-d -l -f -p -c -s -u', values: '-n', numeric: true },
    (c) =>
      c.operands.some((o) => o.startsWith('+') && !/^\+(\d+|\/.*)$/.test(o))
        ? 'more +command is not known to be harmless'
        : undefined,
  ),
  wc: byOptions('wc', 'read_file', {
    looseOk: true,
    flags: '-c -m -l -L -w --bytes --chars --lines --words --max-line-length',
    values: '--files0-from --total',
    // The file naming the files to count: `wc` prints a name it cannot open, so its text.
    reads: '--files0-from',
  }),
  file: byOptions('file', 'read_file', {
    flags:
      '-b -i -L -h -z -s -k -N -r -p -E -l --brief --mime --mime-type --mime-encoding --dereference',
    values: '-F -e -f -P --separator --exclude --files-from',
    // The file naming the files to look at: `file` prints each line it reads there.
    reads: '-f --files-from',
    danger: { '-C': 'file -C writes a compiled magic file', '--compile': 'file -C writes a file' },
  }),
  stat: byOptions('stat', 'read_file', {
    looseOk: true,
    flags: '-L -f -t --dereference --terse --file-system',
    values: '-c --format --printf',
  }),
  du: byOptions('du', 'read_file', {
    looseOk: true,
    flags:
      '-s -h -a -c -k -m -b -x -L -P -H -l -S -0 --summarize --human-readable --all --total --apparent-size --si --one-file-system --time',
    values:
      '-d --max-depth -B --block-size -t --threshold --exclude -X --exclude-from --time-style --files0-from',
    reads: '-X --exclude-from --files0-from',
  }),
  df: byOptions('df', 'read_file', {
    looseOk: true,
    flags:
      '-h -H -a -i -k -l -P -T --total --human-readable --si --local --print-type --inodes --all',
    values: '-t -x -B --type --exclude-type --block-size --output',
  }),
  diff: byOptions('diff', 'read_file', DIFF),
  cmp: byOptions('cmp', 'read_file', {
    looseOk: true,
    flags: '-b -l -s --print-bytes --verbose --quiet --silent',
    values: '-i -n --ignore-initial --bytes',
  }),
  md5sum: SUMS,
  sha1sum: SUMS,
  sha256sum: SUMS,
  sha512sum: SUMS,
  jq: jqProgram(),
  yq: yqProgram(),
  sort: byOptions('sort', 'read_file', {
    flags:
      '-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --check --merge --stable --unique --zero-terminated',
    values: '-k -t -S -T --key --field-separator --buffer-size --temporary-directory --parallel',
    danger: {
      '-o': 'sort -o writes a file',
      '--output': 'sort -o writes a file',
      '--compress-program': 'sort --compress-program runs a program',
    },
  }),
  uniq: byOptions(
    'uniq',
    'read_file',
    {
      flags:
        '-c -d -D -u -i -z --count --repeated --unique --ignore-case --zero-terminated --all-repeated',
      values: '-f -s -w --skip-fields --skip-chars --check-chars',
    },
    (c) => (c.operands.length > 1 ? 'uniq with a second file name writes to it' : undefined),
  ),
  cut: byOptions('cut', 'read_file', {
    looseOk: true,
    flags: '-s -z -n --complement --only-delimited --zero-terminated',
    values: '-b -c -d -f --bytes --characters --delimiter --fields --output-delimiter',
  }),
  tr: byOptions('tr', 'read_file', { flags: '-c -C -d -s -t' }, undefined, null),
  column: byOptions('column', 'read_file', {
    looseOk: true,
    flags: '-t -x -n -e -J --table --json',
    values: '-s -c -o -N -R -H -W -T -E --separator --output-separator --table-columns',
  }),
  nl: byOptions('nl', 'read_file', {
    looseOk: true,
    flags: '-p',
    values: '-b -n -w -s -v -i -h -f -d -l',
  }),
  od: byOptions('od', 'read_file', {
    looseOk: true,
    flags: '-b -c -d -f -i -l -o -s -x -v',
    values: '-A -j -N -t -w -S',
  }),
  xxd: byOptions(
    'xxd',
    'read_file',
    {
      flags: '-a -b -C -E -e -i -p -u -d -ps -plain',
      values: '-c -g -l -o -s -n -cols -len -seek',
      danger: { '-r': 'xxd -r writes binary data to a file', '-revert': 'xxd -r writes a file' },
    },
    (c) => (c.operands.length > 1 ? 'xxd with a second file name writes to it' : undefined),
  ),
  hexdump: byOptions('hexdump', 'read_file', {
    looseOk: true,
    flags: '-b -c -C -d -o -x -v',
    values: '-e -f -n -s',
    // A format file: hexdump prints a line it cannot parse ("bad format {…}").
    reads: '-f',
  }),
  strings: byOptions('strings', 'read_file', {
    looseOk: true,
    flags: '-a -f -w -d --all --print-file-name',
    values: '-n -t -e --bytes --radix --encoding',
    numeric: true,
  }),
  readlink: byOptions('readlink', 'read_file', {
    looseOk: true,
    flags: '-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing',
  }),
  realpath: byOptions('realpath', 'read_file', {
    looseOk: true,
    flags: '-e -m -L -P -q -s -z --canonicalize-existing --canonicalize-missing --no-symlinks',
    values: '--relative-to --relative-base',
  }),
  basename: byOptions('basename', 'read_file', { flags: '-a -z', values: '-s' }, undefined, null),
  dirname: byOptions('dirname', 'read_file', { flags: '-z' }, undefined, null),
  bat: byOptions('bat', 'read_file', {
    flags: '-p -P -n -A --plain --number --show-all --no-paging',
    values:
      '-l -r -H --language --line-range --highlight-line --style --color --theme --paging --tabs --wrap --terminal-width',
    danger: { '--pager': 'bat --pager runs a program' },
  }),
  comm: byOptions('comm', 'read_file', {
    looseOk: true,
    flags: '-1 -2 -3 -i -z --check-order --nocheck-order',
    values: '--output-delimiter',
  }),
  paste: byOptions('paste', 'read_file', { flags: '-s -z --serial', values: '-d --delimiters' }),
  fold: byOptions('fold', 'read_file', { flags: '-b -s', values: '-w --width' }),
  rev: byOptions('rev', 'read_file', {}),
  tac: byOptions('tac', 'read_file', { flags: '-b -r', values: '-s' }),
  base64: byOptions(
    'base64',
    'read_file',
    { flags: '-d -i --decode --ignore-garbage', values: '-w --wrap' },
    (c) => (c.operands.length > 1 ? 'base64 takes one file' : undefined),
  ),
  sed: sedProgram(),
  awk: awkProgram('awk'),
  gawk: awkProgram('gawk'),
  mawk: awkProgram('mawk'),
};

/** sed that only prints: its options, then its script, checked command by command. */
function sedProgram(): KnownProgram {
  const table = options({
    flags:
      '-n -E -r -s -u -z --quiet --silent --regexp-extended --separate --unbuffered --null-data --posix --debug --sandbox',
    values: '-e -l --expression --line-length',
    danger: {
      '-f': 'sed -f runs a script file Gatehouse does not read',
      '--file': 'sed -f runs a script file Gatehouse does not read',
    },
  });
  return {
    action: 'read_file',
    paths(args) {
      const plain = args.filter((a) => !/^(-i\S*|--in-place(=.*)?)$/.test(a));
      const { operands } = checkArgs('sed', plain, table, () => false);
      const scripted = plain.some((a) => /^(-e|--expression)/.test(a) || /^-[nErsuz]*e/.test(a));
      return scripted ? operands : operands.slice(1);
    },
    vet(args, loose) {
      // `-i` (in place) is an edit the mapping names; its script is checked all the same.
      const inPlace = (a: string): boolean => /^(-i\S*|--in-place(=.*)?)$/.test(a);
      const kept = args.flatMap((a, i) => (inPlace(a) ? [] : [i]));
      const plain = kept.map((i) => args[i]!);
      const checked = checkArgs('sed', plain, table, loose && ((i) => loose(kept[i]!)));
      if (checked.unproven) return checked.unproven;
      const found = sedScripts(plain);
      const first = plain.findIndex((_, i) => isSedOperand(plain, i));
      const scripts = found.length ? found : first < 0 ? [] : [{ at: first, text: plain[first]! }];
      const anywhere = (i: number): boolean =>
        loose ? loose(kept[i]!, true) : /[$`]/.test(plain[i]!);
      if (scripts.some(({ at }) => anywhere(at)))
        return 'the sed script holds an expansion, so it is not the script Gatehouse reads';
      // sed reads its -e pieces as one script, a newline between them: an `a\` text or a
      // `{` block goes on into the next piece.
      return sedScriptProblem(scripts.map(({ text }) => text).join('\n'));
    },
  };
}

/** awk limited to printing (awk-program.ts); program files and gawk's extensions ask. */
function awkProgram(name: string): KnownProgram {
  const table = options({
    values: '-F -v --field-separator --assign',
    permute: false,
    danger: {
      '-f': `${name} -f runs a program file Gatehouse does not read`,
      '--file': `${name} -f runs a program file`,
      '-i': `${name} -i includes awk source`,
      '--include': `${name} -i includes awk source`,
      '-l': `${name} -l loads a compiled extension`,
      '--load': `${name} -l loads a compiled extension`,
      '-E': `${name} -E runs a program file`,
      '--exec': `${name} -E runs a program file`,
      '-W': `${name} -W options are not known to be harmless`,
    },
  });
  return {
    action: 'read_file',
    paths: (args) =>
      checkArgs(name, args, table, () => false)
        .operands.slice(1)
        .filter((f) => !/^[A-Za-z_]\w*=/.test(f)),
    vet(args, loose) {
      const checked = checkArgs(name, args, table, loose);
      if (checked.unproven) return checked.unproven;
      const [program, ...files] = checked.operands;
      if (program === undefined) return `${name} without a program is not known to be harmless`;
      const at = awkProgramIndex(args);
      if (loose ? loose(at, true) : /[$`]/.test(args[at] ?? ''))
        if (loose || /[`]|\$[A-Za-z_{(]/.test(args[at] ?? ''))
          return `the ${name} program holds an expansion, so it is not the program Gatehouse reads`;
      if (files.some((f) => /^[A-Za-z_]\w*=/.test(f) && /[`$]/.test(f)))
        return `${name} variable operands built from expansions are not known to be harmless`;
      const problem = awkProgramProblem(program);
      return problem ? `awk programs can run commands: ${problem}` : undefined;
    },
  };
}

/** sed's `-e script`, `--expression=script` and `-ne script` arguments: where and what. */
function sedScripts(args: readonly string[]): { at: number; text: string }[] {
  const out: { at: number; text: string }[] = [];
  const next = (i: number): void => {
    if (i < args.length) out.push({ at: i, text: args[i]! });
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '-e' || a === '--expression') next(++i);
    else if (a.startsWith('--expression=')) out.push({ at: i, text: a.slice(13) });
    else if (a === '-l' || a === '--line-length') i++;
    else if (/^-[a-zA-Z]+$/.test(a)) {
      const e = a.indexOf('e');
      const l = a.indexOf('l');
      if (e > 0 && (l < 0 || e < l)) {
        if (e === a.length - 1) next(++i);
        else out.push({ at: i, text: a.slice(e + 1) });
      } else if (l > 0 && l === a.length - 1) i++;
    }
  }
  return out;
}

/** True for sed's first operand (its script when no `-e` is given). */
function isSedOperand(args: readonly string[], i: number): boolean {
  for (let k = 0; k < i; k++) {
    const a = args[k]!;
    if (a === '--') return k === i - 1;
    if (!a.startsWith('-') || a === '-') return false;
    if (a === '-l' || a === '--line-length' || (/^-[a-zA-Z]*l$/.test(a) && a.length > 1)) k++;
  }
  const a = args[i]!;
  return a === '-' || !a.startsWith('-') || args[i - 1] === '--';
}

/** Where awk's program is: its first word that is not an option or an option's value. */
function awkProgramIndex(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return i + 1;
    if (/^(-F|-v|--field-separator|--assign)$/.test(a)) i++;
    else if (!a.startsWith('-') || a === '-') return i;
  }
  return args.length;
}

/**
 * jq's options that take two words, a name then a value (`--arg NAME VALUE`); the value of
 * `--rawfile` and `--slurpfile` is a file jq reads (`jq -n --rawfile k FILE '$k'` prints it).
 */
const JQ_NAMED = new Set(['--arg', '--argjson', '--rawfile', '--slurpfile']);

/**
 * jq with its program checked (jq-program.ts): its options, a program that reads no file by
 * name, and no expansion in the program (`jq "$P"` runs whatever `P` holds).
 */
function jqProgram(): KnownProgram {
  const table = options({
    flags:
      '-r -c -s -n -e -j -a -S -C -M -R --tab --raw-output --compact-output --slurp --null-input --exit-status --sort-keys --join-output --ascii-output --raw-input --color-output --monochrome-output --seq --stream',
    values: '--arg --argjson --indent --slurpfile --rawfile',
    reads: '--slurpfile --rawfile',
  });
  return {
    action: 'read_file',
    paths(args) {
      const { checked } = jqArgs(args, () => false);
      return [...checked.operands.slice(1), ...checked.readValues];
    },
    vet(args, loose) {
      const { checked, programAt, unproven } = jqArgs(args, loose ?? looseByText(args));
      if (unproven ?? checked.unproven) return unproven ?? checked.unproven;
      const program = checked.operands[0];
      if (program === undefined) return undefined;
      const expanded = loose
        ? programAt.some((i) => loose(i, true))
        : /[`]|\$[A-Za-z_{(]/.test(program);
      if (expanded)
        return 'the jq program holds an expansion, so it is not the program Gatehouse reads';
      return jqProgramProblem(program);
    },
  };

  /**
   * jq's arguments checked as checkArgs reads them: the NAME of each two-word option is set
   * aside (its VALUE is then the option's value), so the program is the first operand. A NAME
   * that may expand to more words (`--arg $N v`) would move the program: not proven.
   */
  function jqArgs(
    args: readonly string[],
    loose: Looseness,
  ): { checked: CheckedArgs; programAt: number[]; unproven?: string } {
    const at: number[] = [];
    let unproven: string | undefined;
    for (let i = 0; i < args.length; i++) {
      at.push(i);
      if (args[i] === '--') {
        for (let j = i + 1; j < args.length; j++) at.push(j);
        break;
      }
      if (JQ_NAMED.has(args[i]!)) {
        if (loose(i + 1)) unproven ??= `jq ${args[i]} ${args[i + 1]} may expand to more words`;
        i++;
      }
    }
    const kept = at.map((i) => args[i]!);
    const checked = checkArgs('jq', kept, table, (k, anywhere) => loose(at[k]!, anywhere));
    const program = checked.operands[0];
    // Where the program is: a word of its text (an option's value spelt the same counts too,
    // which only asks more).
    const programAt = at.filter((i) => args[i] === program);
    return { checked, programAt, ...(unproven && { unproven }) };
  }
}

/** mikefarah yq's subcommands that take an expression then files (`yq e '.a' f.yml`). */
const YQ_SUBCOMMANDS = new Set(['e', 'eval', 'ea', 'eval-all']);

/**
 * yq, either jq's wrapper (python yq: jq's program) or mikefarah's (`load…(…)`, `eval(…)`):
 * its expression is checked as both read it. mikefarah's takes its first word as a file when
 * one of that name exists (`yq FILE`), so that word is a path too.
 */
function yqProgram(): KnownProgram {
  const table = options({
    flags: '-r -P -C -M -e -n -N -j --prettyPrint --exit-status --null-input --no-doc',
    values: '-o -I -p --output-format --input-format --indent',
    danger: { '-i': 'yq -i rewrites the file', '--inplace': 'yq -i rewrites the file' },
  });
  const expressionAt = (operands: readonly string[]): number =>
    YQ_SUBCOMMANDS.has(operands[0] ?? '') ? 1 : 0;
  return {
    action: 'read_file',
    paths(args) {
      const { operands } = checkArgs('yq', args, table, () => false);
      return operands.slice(expressionAt(operands));
    },
    vet(args, loose) {
      const checked = checkArgs('yq', args, table, loose);
      if (checked.unproven) return checked.unproven;
      const expression = checked.operands[expressionAt(checked.operands)];
      if (expression === undefined) return undefined;
      const expanded = loose
        ? args.some((a, i) => a === expression && loose(i, true))
        : /[`]|\$[A-Za-z_{(]/.test(expression);
      if (expanded)
        return 'the yq expression holds an expansion, so it is not the expression Gatehouse reads';
      return yqExpressionProblem(expression);
    },
  };
}
