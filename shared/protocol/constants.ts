/** Protocol version spoken by this build; see PROTOCOL.md. */
export const PROTOCOL_VERSION = 1 as const;
export const SERVER_NAME = 'gatehouse' as const;
/** Longest accepted line on the agent socket, in bytes (the newline excluded). */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Largest `context` object a request may carry, as JSON bytes. */
export const MAX_CONTEXT_BYTES = 64 * 1024;
/** Longest wait an agent may ask for on one request. */
export const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
