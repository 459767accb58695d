export interface ControlRow {
  agent: string;
  state: 'paused' | 'killed';
  reason?: string | undefined;
  updatedAt: number;
}

/** One agent's sessions as `agents.list` shows them, counted in SQL. */
export interface AgentSessionTally {
  agent: string;
  /** Its sessions still active. */
  activeSessions: number;
  /** When it was last seen: its newest session's last activity or end. */
  lastSeenAt: number;
}

/** Everything controls persist and read: the capability's narrow store port. */
export interface ControlsStore {
  setControl(row: ControlRow): void;
  clearControl(agent: string): void;
  listControls(): ControlRow[];
  /**
   * Every agent that has a session, with its active sessions counted in SQL (not read), the
   * agent of the newest session first.
   */
  tallySessionsByAgent(): AgentSessionTally[];
}
