import type { z } from 'zod';
import type { RequestParams } from '../../../shared/protocol/agent-methods';
import type { Classification } from '../policy/classifier';
import { isProtectedRule } from '../policy/protected-paths';
import type { PictureCall } from './picture-source';

/**
 * Rules under which a call's file is Gatehouse's own or a secret: its picture never reads
 * the file on disk (the diff would carry the secret's current content to every surface).
 */
export function closesDisk(rule: string): boolean {
  return isProtectedRule(rule) || rule === 'default:secret_path';
}

/**
 * The picture call of a request filed through the SDK's `request`: what its params allow.
 * Its command is read like a hook's (a push, the files it applies), a `git_push` without one
 * as the plain `git push` of its directory; a single path with `content` (or `old_string` /
 * `new_string`) in the context is diffed like a Write (or an Edit); a message action's
 * context (`to`, `subject`, `body`, `channel`) is its preview. The directory is the context's
 * absolute `cwd`, else the session's project.
 */
export function sdkPictureCall(
  p: z.output<typeof RequestParams>,
  c: Classification,
  project: string | undefined,
): PictureCall {
  const context = p.context ?? {};
  const cwd =
    typeof context.cwd === 'string' && /^([A-Za-z]:)?[\\/]/.test(context.cwd)
      ? context.cwd
      : project;
  const command = p.command ?? (p.action === 'git_push' ? 'git push' : undefined);
  const path = p.paths?.length === 1 ? { file_path: p.paths[0] } : {};
  return {
    tool: p.action,
    input: { ...context, ...path },
    ...(cwd !== undefined ? { cwd } : {}),
    ...(command !== undefined ? { command } : {}),
    ...(p.oversize !== undefined ? { oversize: p.oversize } : {}),
    ...(closesDisk(c.rule) ? { diskClosed: 'a protected or secret path' } : {}),
    actions: [
      {
        action: p.action,
        target: p.target,
        ...(p.paths?.length ? { paths: p.paths } : {}),
        tier: c.tier,
        rule: c.rule,
        risk: c.risk,
      },
    ],
  };
}
