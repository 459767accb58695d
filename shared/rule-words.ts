import type { RuleDraft } from './domain';

/**
 * Says in plain words what a rule covers, e.g. "deploy with command `kubectl apply:*` in
 * project /srv/app" or "any deploy in any project (action-wide)".
 */
export function describeRule(d: RuleDraft): string {
  const parts: string[] = [];
  if (d.command !== undefined) parts.push(`command \`${d.command}\``);
  if (d.commandPrefix !== undefined) parts.push(`command \`${d.commandPrefix}:*\``);
  if (d.target !== undefined) parts.push(`target ${d.target}`);
  if (d.paths !== undefined) parts.push(`paths ${d.paths.join(', ')}`);
  const where = d.project !== undefined ? `in project ${d.project}` : 'in any project';
  if (parts.length === 0) return `any ${d.action} ${where} (action-wide)`;
  return `${d.action} with ${parts.join(', ')} ${where}`;
}
