import type { Tier } from '../domain';

/**
 * The built-in action table (seed 001): local, reversible, read-only work runs at once;
 * anything that talks to another person, leaves the sandbox or cannot be undone asks.
 * Actions not listed here ask too.
 */
export const DEFAULT_ACTIONS: Readonly<Record<string, { tier: Tier; why: string }>> = {
  // Auto: local and reversible.
  read_file: { tier: 'auto', why: 'reading project files has no side effects' },
  list_files: { tier: 'auto', why: 'listing files has no side effects' },
  search_files: { tier: 'auto', why: 'searching files has no side effects' },
  git_status: { tier: 'auto', why: 'read-only git query' },
  git_log: { tier: 'auto', why: 'read-only git query' },
  git_diff: { tier: 'auto', why: 'read-only git query' },
  read_git_history: { tier: 'auto', why: 'read-only git query' },
  run_tests: { tier: 'auto', why: 'verification without mutations' },
  memory_read: { tier: 'auto', why: 'local data' },
  memory_write: { tier: 'auto', why: 'local, reversible data' },
  create_branch: { tier: 'auto', why: 'a local branch is easily deleted' },
  create_worktree: { tier: 'auto', why: 'a local worktree is easily deleted' },
  write_own_log: { tier: 'auto', why: "the agent's own bookkeeping" },
  embed: { tier: 'auto', why: 'computation only' },
  similarity_search: { tier: 'auto', why: 'computation only' },
  analyze_session: { tier: 'auto', why: 'read-only analysis' },
  // Ask: communication with people (always).
  send_email: { tier: 'ask', why: 'an email cannot be unsent and is seen by others' },
  send_message: { tier: 'ask', why: 'a message is seen by others' },
  post_message: { tier: 'ask', why: 'a chat post is seen by others' },
  submit_assignment: { tier: 'ask', why: 'a submission has consequences for a person' },
  create_issue: { tier: 'ask', why: 'an issue is publicly visible' },
  create_comment: { tier: 'ask', why: 'a comment is publicly visible' },
  // Ask: code leaving the sandbox.
  write_file: { tier: 'ask', why: 'modifies code in a repository' },
  edit_file: { tier: 'ask', why: 'modifies code in a repository' },
  git_commit: { tier: 'ask', why: 'records changes in the repository history' },
  git_push: { tier: 'ask', why: 'a push is visible to collaborators' },
  create_pull_request: { tier: 'ask', why: 'a pull request is visible to collaborators' },
  modify_ci: { tier: 'ask', why: 'CI pipelines are shared infrastructure' },
  // Ask: system changes.
  install_package: { tier: 'ask', why: 'modifies system or project dependencies' },
  modify_config: { tier: 'ask', why: 'dotfiles and system config affect other tools' },
  start_service: { tier: 'ask', why: 'network services and open ports have security implications' },
  run_command: { tier: 'ask', why: 'an arbitrary shell command can do anything' },
  web_fetch: { tier: 'ask', why: 'reaches outside the local sandbox' },
  // Ask: deployment, data, money, access.
  deploy: { tier: 'ask', why: 'a deployment affects users and services' },
  delete_files: { tier: 'ask', why: 'deleted files may not be recoverable' },
  drop_database: { tier: 'ask', why: 'data loss risk' },
  clear_cache: { tier: 'ask', why: 'data loss risk' },
  purchase: { tier: 'ask', why: 'financial consequences' },
  change_billing: { tier: 'ask', why: 'financial consequences' },
  change_credentials: { tier: 'ask', why: 'passwords and keys have security consequences' },
  revoke_token: { tier: 'ask', why: 'access consequences' },
  modify_permissions: { tier: 'ask', why: 'access consequences' },
  // Ask, critical: only a person's approval or their rule for the exact command
  // (main/engine/policy/sandbox-escape.ts).
  leave_sandbox: {
    tier: 'ask',
    why: "asks to run outside Claude Code's sandbox, where Gatehouse's files and the network are open to it",
  },
  // Ask, always, critical (protected-paths.ts): a policy decides what agents may do.
  change_gatehouse_policy: {
    tier: 'ask',
    why: 'a Gatehouse policy decides what agents may do without asking',
  },
};

/** Actions that write or remove files, which a project's `allowed_files` can make auto. */
export const FILE_WRITE_ACTIONS: ReadonlySet<string> = new Set([
  'write_file',
  'edit_file',
  'delete_files',
]);
