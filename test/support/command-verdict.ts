import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RuleRecord } from '../../shared/domain';
import { loadBashParser } from '../../shared/node/bash-parser';
import { bashActions } from '../../shared/tools/bash-actions';
import type { ActionSpec } from '../../shared/tools/action-spec';
import { classifyAction, type Classification } from '../../main/engine/policy/classifier';
import { testPathContext } from './path-context';
import type { PathContext } from '../../main/engine/policy/protected-paths';

/** What the daemon makes of one shell command: each candidate with its classification. */
export interface CommandVerdict {
  command: string;
  tier: 'auto' | 'ask';
  candidates: { spec: ActionSpec; verdict: Classification }[];
}

/**
 * Classifies shell commands the way the daemon's `gate` does (bashActions, then every
 * candidate through the classifier with the command and path protection), for a fake user
 * whose home, Gatehouse data folder and project live in a temporary directory.
 */
export async function commandClassifier(): Promise<{
  verdict(command: string, rules?: RuleRecord[]): CommandVerdict;
  project: string;
}> {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-verdict-'));
  const home = join(root, 'home');
  const data = join(home, '.local/share/gatehouse');
  const project = join(home, 'code/app');
  mkdirSync(data, { recursive: true });
  mkdirSync(project, { recursive: true });
  const shell = await loadBashParser();
  const paths: PathContext = testPathContext({ root, home, data, shell, cwd: project });
  const verdict = (command: string, rules: RuleRecord[] = []): CommandVerdict => {
    const candidates = bashActions(command, shell).map((spec) => ({
      spec,
      verdict: classifyAction({ ...spec, command }, { project, rules, paths }),
    }));
    const tier = candidates.some((c) => c.verdict.tier === 'ask') ? 'ask' : 'auto';
    return { command, tier, candidates };
  };
  return { verdict, project };
}
