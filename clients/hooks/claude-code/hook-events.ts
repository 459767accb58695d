/**
 * The Claude Code hook events Gatehouse installs entries for, the same for the command hook
 * (claude-settings.ts) and the http hook (http-settings.ts).
 */

/** The event that gates tool calls: every call (PreToolUse) or only those Claude Code would prompt for. */
export type GateEvent = 'PreToolUse' | 'PermissionRequest';

/** Events that are only recorded: no matcher, a short timeout. */
export const RECORDED_EVENTS = ['Notification', 'Stop', 'SessionEnd'] as const;
export const RECORD_TIMEOUT_SEC = 10;
/** Every event an entry of Gatehouse's may stand under: what an uninstall looks through. */
export const ALL_EVENTS: string[] = ['PreToolUse', 'PermissionRequest', ...RECORDED_EVENTS];
