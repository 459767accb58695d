/** The agents whose native tool calls Gatehouse maps (the `client` of the `gate` method). */
export const AGENT_KINDS = [
  'claude-code',
  'codex',
  'gemini',
  'copilot',
  'opencode',
  'cursor',
] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

export const isAgentKind = (s: string): s is AgentKind =>
  (AGENT_KINDS as readonly string[]).includes(s);
