import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  addMatcherOptions,
  matchersFromOptions,
  type MatcherOptions,
} from '../../../../clients/cli/rule-matcher-options';

/** Parses `args` as a rule-adding command with the matcher options would. */
function parse(args: string[]): MatcherOptions {
  const cmd = addMatcherOptions(new Command('add').exitOverride(), 'paths help');
  cmd.parse(args, { from: 'user' });
  return cmd.opts<MatcherOptions>();
}

describe('the options that narrow a rule, on a machine and for the team', () => {
  it('turns each option into its matcher, --pattern into a command prefix, --path repeated', () => {
    const o = parse([
      '--project',
      '/srv/web',
      '--pattern',
      'git push',
      '--target',
      'origin',
      '--path',
      'src/**',
      '--path',
      'docs/**',
    ]);
    expect(matchersFromOptions(o)).toEqual({
      project: '/srv/web',
      commandPrefix: 'git push',
      target: 'origin',
      paths: ['src/**', 'docs/**'],
    });
    expect(matchersFromOptions(parse(['--command', 'npm  publish']))).toEqual({
      command: 'npm  publish',
    });
  });

  it('leaves out what was not given: no options make an action-wide rule', () => {
    expect(matchersFromOptions(parse([]))).toEqual({});
    expect(matchersFromOptions({ path: [], command: '' })).toEqual({});
  });

  it("gives --path the command's own help", () => {
    const cmd = addMatcherOptions(new Command('add'), 'relative to --project');
    expect(cmd.options.find((x) => x.long === '--path')?.description).toBe('relative to --project');
  });
});
