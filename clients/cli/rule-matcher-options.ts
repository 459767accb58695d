import type { Command } from 'commander';
import type { RuleMatchers } from '../../shared/domain';

/** The options that narrow a rule to a project, a command, a target or paths. */
export interface MatcherOptions {
  project?: string;
  command?: string;
  pattern?: string;
  target?: string;
  path?: string[];
}

/**
 * Adds the matcher options to a command that adds a rule (`gatehouse rules add` on a machine,
 * `gatehouse hub policy add` for the team): the same words narrow both kinds of rule.
 * `pathHelp` says how that command's paths are read.
 */
export function addMatcherOptions(cmd: Command, pathHelp: string): Command {
  return cmd
    .option('--project <dir>', 'only in this project directory')
    .option('--command <command>', 'only this exact command (whitespace-normalised)')
    .option('--pattern <prefix:*>', "only commands starting with these words, e.g. 'git push:*'")
    .option('--target <target>', 'only this exact target')
    .option('--path <glob>', pathHelp, (v: string, all: string[] = []) => [...all, v]);
}

/** The rule's project and matchers the options gave, with the ones not given left out. */
export function matchersFromOptions(o: MatcherOptions): RuleMatchers {
  return {
    ...(o.project ? { project: o.project } : {}),
    ...(o.command ? { command: o.command } : {}),
    ...(o.pattern ? { commandPrefix: o.pattern } : {}),
    ...(o.target ? { target: o.target } : {}),
    ...(o.path?.length ? { paths: o.path } : {}),
  };
}
