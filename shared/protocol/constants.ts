/** Protocol version spoken by this build; see docs/protocol.md. */
export const PROTOCOL_VERSION = 1 as const;
export const SERVER_NAME = 'gatehouse' as const;
/**
 * The header that carries the dashboard's secret on every `/api/*` call. HTTP header names are
 * case-insensitive; Node hands them over in lower case.
 */
export const DASHBOARD_SECRET_HEADER = 'x-gatehouse-secret';
/** Longest accepted line on the agent socket, in bytes (the newline excluded). */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Largest `context` object a request may carry, as JSON bytes. */
export const MAX_CONTEXT_BYTES = 64 * 1024;
/** Longest wait an agent may ask for on one request. */
export const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** Largest token count a `usage` report may carry. */
export const MAX_TOKENS = 1_000_000_000;
/** Largest cost in US dollars any one call may state (the setting `budgets.maxCostPerCallUsd` is lower). */
export const MAX_COST_USD = 1_000_000;
