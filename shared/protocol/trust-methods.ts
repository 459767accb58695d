import { z } from 'zod';

/**
 * Admin methods for trusting project policy files (`.gatehouse.toml`). A file's restrictions
 * always apply; what it would allow without asking applies only once the person trusts its
 * exact content (its sha256), and any edit voids that trust.
 */

/** An absolute directory path (POSIX or Windows); relative paths are resolved by the client. */
const AbsoluteDir = z
  .string()
  .min(1)
  .max(4096)
  .refine((d) => d.startsWith('/') || /^[A-Za-z]:[\\/]/.test(d) || d.startsWith('\\\\'), {
    message: 'must be an absolute directory path',
  });

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 in lowercase hex');

/** What a policy file would allow without asking and what it restricts. */
export const PolicySummary = z.object({
  allowsActions: z.array(z.string()),
  allowsCommands: z.array(z.string()),
  allowsFileWrites: z.array(z.string()),
  allows: z.array(z.string()),
  restricts: z.array(z.string()),
});
export type PolicySummary = z.infer<typeof PolicySummary>;

/**
 * - `trusted`: the file's current content is the trusted one;
 * - `edited`: other content was trusted (the file changed since);
 * - `untrusted`: never trusted;
 * - `missing`: the file is gone; `invalid`: it does not parse or validate.
 */
export const TrustState = z.enum(['trusted', 'untrusted', 'edited', 'missing', 'invalid']);
export type TrustState = z.infer<typeof TrustState>;

export const ProjectTrustEntry = z.object({
  dir: z.string(),
  file: z.string(),
  state: TrustState,
  trusted: z.boolean(),
  /** sha256 of the file as it is now (absent when missing or unreadable). */
  sha256: z.string().optional(),
  /** sha256 of the content the person trusted, if any. */
  trustedSha256: z.string().optional(),
  trustedAt: z.string().optional(),
  trustedVia: z.string().optional(),
  /** When a session last used a new content of this file. */
  seenAt: z.string().optional(),
  summary: PolicySummary.optional(),
  /** Why the file could not be read (state `invalid`). */
  error: z.string().optional(),
});
export type ProjectTrustEntry = z.infer<typeof ProjectTrustEntry>;

export const TrustListResult = z.object({ projects: z.array(ProjectTrustEntry) });
export const TrustPreviewParams = z.object({ dir: AbsoluteDir });
export const TrustPreviewResult = z.object({ project: ProjectTrustEntry });
export const TrustAddParams = z.object({
  dir: AbsoluteDir,
  /** The hash the person was shown: trust is refused if the file changed since. */
  sha256: Sha256,
  via: z.enum(['cli', 'dashboard', 'desktop', 'socket']).default('socket'),
});
export const TrustAddResult = z.object({ project: ProjectTrustEntry });
export const TrustRemoveParams = z.object({
  dir: AbsoluteDir,
  via: z.enum(['cli', 'dashboard', 'desktop', 'socket']).default('socket'),
});
export const TrustRemoveResult = z.object({ removed: z.literal(true) });

export const trustAdminMethods = {
  'trust.list': { params: z.object({}).default({}), result: TrustListResult, mutates: false },
  'trust.preview': { params: TrustPreviewParams, result: TrustPreviewResult, mutates: false },
  'trust.add': { params: TrustAddParams, result: TrustAddResult, mutates: true },
  'trust.remove': { params: TrustRemoveParams, result: TrustRemoveResult, mutates: true },
} as const;
