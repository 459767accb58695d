import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RuleRecord } from '../../shared/domain';
import { loadBashParser } from '../../shared/node/bash-parser';
import { agentToolAction, type AgentKind } from '../../shared/tools/agent-tools';
import type { ToolInput } from '../../shared/tools/tool-mapping';
import { classifyAction, type ClassifyContext } from '../../main/engine/policy/classifier';
import { testPathContext } from './path-context';

/**
 * A project in a temporary home, and the person's rules letting every one of `actions` pass
 * there (`edit_file`, `write_file` …): what an agent's call is judged against when a rule would
 * let it through, so only Gatehouse's own checks can stop it. Returns the verdicts of a tool
 * call, one `tier:rule` per candidate action.
 */
export async function wideRulesStage(actions: string[], dirs: string[] = []) {
  const shell = await loadBashParser();
  const home = join(realpathSync(mkdtempSync(join(tmpdir(), 'gh-wide-'))), 'home');
  const project = join(home, 'code/app');
  for (const dir of ['', ...dirs]) mkdirSync(join(project, dir), { recursive: true });
  const rules: RuleRecord[] = actions.map((action, i) => ({
    ruleId: `rul-${i}`,
    action,
    tier: 'auto',
    source: 'user',
    project,
    createdAt: '2026-01-01T00:00:00Z',
  }));
  const ctx: ClassifyContext = {
    project,
    rules,
    paths: testPathContext({
      root: join(home, '..'),
      home,
      data: join(home, '.local/share/gatehouse'),
      shell,
      cwd: project,
    }),
  };
  const verdicts = (agent: AgentKind, tool: string, input: ToolInput): string[] => {
    const mapping = agentToolAction(agent, tool, input, shell);
    if (mapping.kind !== 'gate') throw new Error(`not gated: ${mapping.kind}`);
    return mapping.candidates.map((c) => {
      const k = classifyAction(c, ctx);
      return `${k.tier}:${k.rule}`;
    });
  };
  return { project, verdicts };
}
