import { maskSecrets } from '../../shared/request-picture/mask-secrets';
import type { PushPicture } from '../../shared/request-picture/picture-schema';
import { diffRange } from './push-picture';
import { GIT_LIMITS, safeGit, type GitLimits } from './safe-git';

/** The most diff text returned; a larger diff is cut at a line and says how much is left. */
export const MAX_FULL_DIFF_CHARS = 512_000;
/** Git's output read at most for it: beyond this git is stopped and the diff said too large. */
const MAX_FULL_DIFF_BYTES = 4_000_000;

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The full diff of what a push sends, from the commits its picture recorded (`base`…`head`,
 * never a name the repository could have moved since), with the picture's read-only,
 * neutralised git: no external diff, textconv, pager or hook, a timeout, bounded output.
 * Secrets are masked as in every picture.
 */
export async function fullPushDiff(
  push: PushPicture,
  limits: GitLimits = { ...GIT_LIMITS, maxOutputBytes: MAX_FULL_DIFF_BYTES },
): Promise<{ diff?: string; omitted?: string }> {
  if (push.cwd === undefined || push.head === undefined || push.base === undefined)
    return { omitted: 'the push was not read far enough to show its diff' };
  if (!SHA.test(push.head) || !SHA.test(push.base))
    return { omitted: 'the push names no commits to diff' };
  const out = await safeGit(
    push.cwd,
    ['diff', '--no-color', '--patch', ...diffRange(push.base, push.head), '--'],
    limits,
  );
  if (!out.ok)
    return {
      omitted: /maxBuffer/i.test(out.error)
        ? `the diff is larger than ${limits.maxOutputBytes} bytes: not shown`
        : `git diff failed: ${out.error}`,
    };
  const masked = maskSecrets(out.out);
  if (masked.length <= MAX_FULL_DIFF_CHARS) return { diff: masked };
  const cutAt = masked.lastIndexOf('\n', MAX_FULL_DIFF_CHARS);
  const diff = masked.slice(0, cutAt > 0 ? cutAt : MAX_FULL_DIFF_CHARS);
  const missing = masked.slice(diff.length).split('\n').length - 1;
  return { diff, omitted: `the diff is cut: ${missing} more lines not shown` };
}
