import { z } from 'zod';

/**
 * What a request carries for the person deciding on it, beyond its one line: the diff a file
 * edit makes, what a push sends, how a command breaks down. Computed by the daemon after the
 * request is filed (bounded, read-only), stored with it, and shown on every surface. Every
 * part says what it left out, so a cut is never silent.
 */

/** One file a call writes: a unified diff against the file on disk. */
export const FileChangePicture = z.object({
  path: z.string(),
  /** `create`: no file there yet; `modify`: a diff against it; `patch`: the call's own patch. */
  kind: z.enum(['create', 'modify', 'patch']),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /** The unified diff, secrets masked; absent when nothing could be shown (see `omitted`). */
  diff: z.string().optional(),
  /** What was left out and why (a binary file, a file too large, a diff cut short). */
  omitted: z.string().optional(),
});
export type FileChangePicture = z.infer<typeof FileChangePicture>;

/** One commit a push would send. */
export const PushCommit = z.object({
  sha: z.string(),
  author: z.string(),
  subject: z.string(),
});
export type PushCommit = z.infer<typeof PushCommit>;

/** What a `git push` would send: read from the call's repository with read-only git. */
export const PushPicture = z.object({
  remote: z.string(),
  url: z.string().optional(),
  branch: z.string().optional(),
  force: z.boolean(),
  /** The commits the remote lacks, newest first (at most the shown limit). */
  commits: z.array(PushCommit),
  /** How many commits the remote lacks in all (may be more than `commits` holds). */
  commitCount: z.number().int().nonnegative(),
  /** `git diff --stat` of what is sent, bounded. */
  diffstat: z.string().optional(),
  /** The directory git read: the command's own (after its `cd`, or `git -C`). */
  cwd: z.string().optional(),
  /** The commit sent (the branch's tip when it was read), so the full diff is of that. */
  head: z.string().optional(),
  /**
   * The remote-tracking branch's commit the diff is against; absent for a branch the remote
   * has no tracking branch of (the diff is then of the commits no remote has).
   */
  base: z.string().optional(),
  omitted: z.string().optional(),
});
export type PushPicture = z.infer<typeof PushPicture>;

/** One simple command of a call as the classifier read it, and what it said about it. */
export const CommandPart = z.object({
  action: z.string(),
  target: z.string().optional(),
  paths: z.array(z.string()).optional(),
  tier: z.string(),
  rule: z.string(),
  risk: z.string().optional(),
});
export type CommandPart = z.infer<typeof CommandPart>;

/** A file a command applies (`kubectl apply -f`, `psql -f`, a compose file, a plan). */
export const AppliedFilePicture = z.object({
  /** What applies it, e.g. `kubectl apply`, `terraform apply`, `psql`, `docker compose`. */
  by: z.string(),
  path: z.string(),
  /** Its content, secrets masked, bounded; absent when it was not read (see `omitted`). */
  content: z.string().optional(),
  omitted: z.string().optional(),
});
export type AppliedFilePicture = z.infer<typeof AppliedFilePicture>;

/** What an action that talks to people would send, as the call's input names it. */
export const MessagePicture = z.object({
  /** `email`, a `chat` post, a `comment` on an issue or pull request, or a new `issue` or PR. */
  kind: z.enum(['email', 'chat', 'comment', 'issue']),
  to: z.array(z.string()).optional(),
  cc: z.array(z.string()).optional(),
  bcc: z.array(z.string()).optional(),
  /** A chat channel, or the issue or pull request commented on. */
  channel: z.string().optional(),
  subject: z.string().optional(),
  /** The body's start, secrets masked. */
  body: z.string().optional(),
  omitted: z.string().optional(),
});
export type MessagePicture = z.infer<typeof MessagePicture>;

export const RequestPicture = z.object({
  files: z.array(FileChangePicture).optional(),
  push: PushPicture.optional(),
  applied: z.array(AppliedFilePicture).optional(),
  message: MessagePicture.optional(),
  /** The call's actions, in order: which of them asked and under which rule. */
  commands: z.array(CommandPart).optional(),
  /** What could not be computed at all (a failed git, a path that could not be read). */
  omitted: z.array(z.string()).optional(),
});
export type RequestPicture = z.infer<typeof RequestPicture>;
