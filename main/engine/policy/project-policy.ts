import { z } from 'zod';
import { Risk } from '../../../shared/domain';

const ActionName = z.string().min(1).max(128);

/**
 * A project's `.gatehouse.toml`: rules that promote or demote actions in that project and a
 * policy gate on files, commands and risk. Parsed from TOML by the loader; validated here.
 */
export const ProjectPolicyFile = z.object({
  rules: z
    .object({
      allow_without_permission: z.array(ActionName).default([]),
      require_permission: z.array(ActionName).default([]),
    })
    .prefault({}),
  policy: z
    .object({
      allowed_files: z.array(z.string().min(1)).optional(),
      allowed_commands: z.array(z.string().min(1)).default([]),
      blocked_commands: z.array(z.string().min(1)).default([]),
      max_risk: Risk.optional(),
    })
    .prefault({}),
  automation: z
    .object({
      /** When false, the automation ladder never raises this project's level by itself. */
      allow_auto_promotion: z.boolean().default(true),
    })
    .prefault({}),
});
export type ProjectPolicyFile = z.infer<typeof ProjectPolicyFile>;

export interface ProjectPolicy {
  /** Absolute path of the file the policy came from, for rule names. */
  file: string;
  /**
   * The project directory the file belongs to, canonical (symlinks resolved), so that trust
   * recorded for a project is found whatever spelling of its path an agent gives.
   */
  dir: string;
  /** sha256 (hex) of the file's exact bytes: what the person trusts, not the file's name. */
  sha256: string;
  policy: ProjectPolicyFile;
}

/**
 * Loads the policy of a project directory; `undefined` when it has none. A file that does not
 * parse or validate throws, so that a broken policy never silently weakens the gate.
 */
export type ProjectPolicyLoader = ((projectDir: string) => ProjectPolicy | undefined) & {
  /** The directory as the loader keys it (symlinks resolved), also when it has no file. */
  canonicalDir?: (projectDir: string) => string;
  /**
   * The root of the project a directory is in (the nearest ancestor with a policy file, else
   * the repository root, else the directory): sessions are in the project at its root.
   */
  projectRoot?: (dir: string) => string;
  /** The policy file's path in a directory (as given), also when there is none. */
  fileIn?: (projectDir: string) => string;
};
