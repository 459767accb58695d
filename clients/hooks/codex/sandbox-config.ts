/**
 * Defence in depth for Codex: besides the hooks, `--install` turns on Codex's own
 * OS sandbox for the commands it runs (bubblewrap on Linux, Seatbelt on macOS; checked with
 * Codex 0.169.0): `sandbox_mode = "workspace-write"` (commands write only in the workspace
 * and its temporary folders, so Gatehouse's data folder and program are read-only to them)
 * and `[sandbox_workspace_write] network_access = false` (no network). A mode or setting the
 * person chose stays. Codex's user config cannot deny reads (its `deny_read` is for managed
 * requirements only): Gatehouse's hook is what keeps its files from being read. The file is
 * edited as text, so the person's comments and layout stay. `--no-sandbox` leaves it alone.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'smol-toml';
import type { InstallTarget } from '../install/installer';

const MODE = 'sandbox_mode = "workspace-write"';
const TABLE = '[sandbox_workspace_write]';
const NO_NETWORK = 'network_access = false';

/** `$CODEX_HOME/config.toml` (default `~/.codex`): where the user's sandbox settings live. */
export function codexConfigPath(t: InstallTarget): string {
  const codexHome = t.env.CODEX_HOME ? resolve(t.env.CODEX_HOME) : join(t.home, '.codex');
  return join(codexHome, 'config.toml');
}

/** What the install changed in the text, and the new text; or why it left the file alone. */
export function withCodexSandbox(
  text: string,
): { text: string; changed: string[] } | { unchanged: string } {
  let config: Record<string, unknown>;
  try {
    config = parse(text) as Record<string, unknown>;
  } catch (error) {
    return { unchanged: `it does not parse as TOML (${(error as Error).message.split('\n')[0]})` };
  }
  const changed: string[] = [];
  let out = text;
  if (config.sandbox_mode === undefined) {
    // A top-level key goes before the first table.
    out = `${MODE}\n${out}`;
    changed.push(MODE);
  }
  const table = config.sandbox_workspace_write;
  if (table === undefined) {
    out = `${out}${out.endsWith('\n') || !out ? '' : '\n'}\n${TABLE}\n${NO_NETWORK}\n`;
    changed.push(`${TABLE} ${NO_NETWORK}`);
  } else if (
    typeof table === 'object' &&
    table !== null &&
    (table as Record<string, unknown>).network_access === undefined
  ) {
    const at = out.search(/^\[sandbox_workspace_write\][ \t]*(#.*)?$/m);
    if (at >= 0) {
      const lineEnd = out.indexOf('\n', at);
      out =
        lineEnd < 0
          ? `${out}\n${NO_NETWORK}\n`
          : `${out.slice(0, lineEnd + 1)}${NO_NETWORK}\n${out.slice(lineEnd + 1)}`;
      changed.push(`${TABLE} ${NO_NETWORK}`);
    }
  }
  // What was written must read back as meant, or nothing is written.
  try {
    const back = parse(out) as { sandbox_workspace_write?: { network_access?: unknown } };
    if (changed.length && back.sandbox_workspace_write?.network_access === undefined)
      return { unchanged: 'its [sandbox_workspace_write] table could not be extended' };
  } catch {
    return { unchanged: 'the edited file would not parse' };
  }
  return { text: out, changed };
}

/** Turns the sandbox on in the user's Codex config; one line for the person. */
export function installCodexSandbox(t: InstallTarget): string {
  const path = codexConfigPath(t);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const r = withCodexSandbox(before);
  if ('unchanged' in r) return `Left Codex's sandbox settings in ${path} alone: ${r.unchanged}`;
  if (!r.changed.length)
    return `Codex's sandbox settings in ${path} are the person's own: left as they are`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, r.text);
  return `Turned on Codex's sandbox in ${path} (${r.changed.join('; ')}): its commands write only in the workspace and reach no network (--no-sandbox leaves it off)`;
}
