#!/usr/bin/env node
/**
 * The `gatehouse` entry. An agent hook (`gatehouse hook <agent>`, no options) runs before
 * every tool call, so it skips the full command-line program (commander and every command
 * module) and loads the hook relay's own small bundle (clients/hooks/hook-main.ts, built
 * apart by scripts/build.mjs); everything else loads the program.
 */
const [command, sub, ...rest] = process.argv.slice(2);
if (command === 'hook' && sub && !sub.startsWith('-') && rest.length === 0) {
  // A path computed at run time: esbuild leaves it alone, so the relay stays its own bundle.
  const relay = new URL('../hook/gatehouse-hook.js', import.meta.url);
  await import(relay.href);
} else {
  await import('./program');
}

export {};
