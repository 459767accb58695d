/**
 * The command-line program's ESM entry (dist/cli-main/gatehouse.js). `gatehouse` itself is the
 * small CommonJS launcher scripts/build.mjs writes to dist/cli/gatehouse.js: it sends an agent
 * hook (`gatehouse hook <agent>`, no options) straight to the relay's own bundle
 * (clients/hooks/hook-main.ts → dist/hook/gatehouse-hook.cjs) and everything else here.
 */
await import('./program');

export {};
