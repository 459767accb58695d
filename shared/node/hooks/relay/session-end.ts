/**
 * How an agent's SessionEnd `reason` ends the Gatehouse session (Claude Code 2.1.330's
 * reasons: clear, resume, logout, prompt_input_exit, other; Codex 0.169 sends other when
 * `codex exec` ends). The person leaving (exit,
 * logout) and a run ending otherwise (`other`: what `claude -p` sends when it finishes)
 * complete it; `/clear` throws the conversation away and goes on under a new session id, so
 * this one is aborted, not completed; `resume` switches to another conversation and this one
 * may be resumed under the same id, so it is only recorded and stays open, as do reasons
 * this table does not know.
 */
export function endStatus(reason: string | undefined): 'completed' | 'aborted' | undefined {
  switch (reason) {
    case 'prompt_input_exit':
    case 'logout':
    case 'other':
      return 'completed';
    case 'clear':
      return 'aborted';
    default:
      return undefined;
  }
}
