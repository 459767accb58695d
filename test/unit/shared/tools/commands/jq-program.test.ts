import { describe, expect, it } from 'vitest';
import {
  jqProgramProblem,
  yqExpressionProblem,
} from '../../../../../shared/tools/commands/jq-program';
import { TEXT_TOOLS } from '../../../../../shared/tools/commands/text-tools';

describe('jqProgramProblem: a jq program that reads a file it names', () => {
  it('finds import and include whatever stands before the path (a comment, a line break)', () => {
    for (const program of [
      'import "../.docker/config" as $d; $d',
      'import #c\n"../.docker/config" as $d; $d',
      'import\n\n  "x" as $d; $d',
      'include #c\n"x"; .',
      '# header\ninclude "x"; .',
      'import "a" as a; import "b" as $b; .',
      'module {a: 1}; import "x" as $d; $d',
    ])
      expect(jqProgramProblem(program), JSON.stringify(program)).toMatch(/reads a file/);
  });

  it('reads comments as every jq version does: a " in one does not hide what follows', () => {
    for (const program of [
      // jq 1.6 ends a comment at a carriage return; 1.7.1 does not.
      '# a\r"\nimport "x" as $d; $d',
      // jq 1.8 continues a comment after a backslash; 1.7.1 does not.
      '# a \\\n"\nimport "x" as $d; $d " ',
      '# a "\nimport "x" as $d; $d',
    ])
      expect(jqProgramProblem(program), JSON.stringify(program)).toMatch(/reads a file/);
  });

  it('finds modulemeta, also inside a string interpolation', () => {
    expect(jqProgramProblem('"x" | modulemeta')).toMatch(/modulemeta/);
    expect(jqProgramProblem('"\\("x" | modulemeta)"')).toMatch(/modulemeta/);
    expect(jqProgramProblem('"a\\"\\(import)"')).toMatch(/import/);
  });

  it('leaves fields, variables, formats, strings and longer names alone', () => {
    for (const program of [
      '.',
      '.import, .include, .modulemeta',
      '.[] | select(.kind == "include" or .kind == "import")',
      '1 as $import | $__loc__ | input_filename',
      'x::import',
      'importer',
      '"# not a comment" | @base64',
      '# import "x" as $d;\n.',
      'getpath(["a"]) | get_search_list',
    ])
      expect(jqProgramProblem(program), program).toBeUndefined();
  });
});

describe('yqExpressionProblem: mikefarah yq reading or evaluating, and jq directives', () => {
  it('finds load… and eval, however spelt and wherever they start', () => {
    for (const expression of [
      'load("f")',
      'load\n("f")',
      '.a = load_str("f")',
      'xml_load("f")',
      'strload("f")',
      'load_base64("f")',
      '1load("f")',
      '...load("f")',
      '"x.y"load("f")',
      '. | eval(strenv(E))',
      '"load"',
      'import #c\n"x" as $d; $d',
    ])
      expect(yqExpressionProblem(expression), expression).toBeDefined();
  });

  it('leaves paths and variables that hold the letters alone', () => {
    for (const expression of [
      '.services',
      '.download_url',
      '.spec.evaluation',
      '.a.preload-b',
      '.a as $payload | $payload',
    ])
      expect(yqExpressionProblem(expression), expression).toBeUndefined();
  });
});

describe('jq and yq arguments', () => {
  const jq = TEXT_TOOLS.jq!;
  const yq = TEXT_TOOLS.yq!;

  // The words as the syntax tree gives them, quoted: none expands.
  const quoted = () => false;

  it('jq: the program is the word after the two words of --arg, --rawfile …', () => {
    expect(jq.vet(['-n', '--arg', 'x', 'import', '.'], quoted)).toBeUndefined();
    expect(jq.vet(['-n', '--arg', 'x', 'y', 'import "f" as $f; $f'], quoted)).toMatch(/import/);
    expect(jq.vet(['-n', '--rawfile', 'x', 'f', 'include "g"; .'], quoted)).toMatch(/include/);
  });

  it('jq: the file of --rawfile and --slurpfile is a path; the NAME and program are not', () => {
    expect(jq.paths!(['-n', '--rawfile', 'k', '/etc/hosts', '.'])).toEqual(['/etc/hosts']);
    expect(jq.paths!(['--slurpfile', 'k', 'a.json', '--arg', 'n', 'v', '.a', 'b.json'])).toEqual([
      'b.json',
      'a.json',
    ]);
  });

  it('jq: a NAME that may split into words, or a program with an expansion, asks', () => {
    expect(jq.vet(['-n', '--arg', '$N', 'v', '.'])).toMatch(/more words/);
    expect(jq.vet(['-n', '.a.$K'])).toMatch(/expansion/);
  });

  it('yq: the expression follows a mikefarah subcommand; the first word may be a file', () => {
    expect(yq.vet(['e', '.a', 'f.yml'])).toBeUndefined();
    expect(yq.vet(['eval', 'load("f")'])).toMatch(/load/);
    expect(yq.paths!(['e', '.a', 'f.yml'])).toEqual(['.a', 'f.yml']);
    expect(yq.paths!(['../.docker/config.json'])).toEqual(['../.docker/config.json']);
  });
});
