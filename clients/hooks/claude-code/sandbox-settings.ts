/**
 * Defence in depth for Claude Code: besides the hooks, `--install` turns on
 * Claude Code's own OS sandbox for its shell commands (bubblewrap on Linux, Seatbelt on
 * macOS) and tells it that Gatehouse's files may be neither read nor written, by its tools
 * (permission deny rules) or by any sandboxed command (`sandbox.filesystem`). Should the
 * classifier ever let a command through that reaches them, the kernel still says no. With the
 * sandbox on, commands reach only the network domains the person allowed. `--no-sandbox`
 * leaves all of this out. Pure functions over the parsed settings, like claude-settings.ts.
 */
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { resolveHome, resolveSocketPath } from '../../../shared/node/socket-path';
import type { JsonObject } from '../install/hook-groups';

/** What of Gatehouse the agent's commands may not read, and may not write. */
export interface GatehouseFiles {
  /** The data directory, the config directory, the socket's directory when it is Gatehouse's. */
  noRead: string[];
  /** The same, and the program the hook command runs (a rewritten hook answers itself). */
  noWrite: string[];
}

/** Gatehouse's own files as this install's environment places them. */
export function gatehouseFiles(env: NodeJS.ProcessEnv, programDir?: string): GatehouseFiles {
  const home = env.HOME || homedir();
  const data = resolve(resolveHome(env));
  const config = resolve(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'gatehouse');
  const noRead = [data, config];
  const socketDir = dirname(resolve(resolveSocketPath(env)));
  // A socket in a shared folder (/tmp) names only itself; its own folder is guarded whole.
  if (socketDir.startsWith(`${data}/`) || basename(socketDir) === 'gatehouse')
    noRead.push(socketDir);
  const unique = (xs: string[]) => [...new Set(xs)];
  return {
    noRead: unique(noRead),
    noWrite: unique([...noRead, ...(programDir ? [resolve(programDir)] : [])]),
  };
}

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** Claude Code's permission rule for a folder and everything in it (`//` = absolute). */
const ruleFor = (tool: 'Read' | 'Edit', dir: string): string => `${tool}(/${dir}/**)`;

/** The entries Gatehouse adds, by where they go. */
function entries(f: GatehouseFiles) {
  return {
    deny: [...f.noRead.map((d) => ruleFor('Read', d)), ...f.noWrite.map((d) => ruleFor('Edit', d))],
    denyRead: f.noRead,
    denyWrite: f.noWrite,
  };
}

/** Adds Gatehouse's sandbox entries; a new object, the input is not changed. */
export function installSandbox(
  settings: JsonObject,
  files: GatehouseFiles,
): { settings: JsonObject; changed: boolean; sandboxOff: boolean } {
  const e = entries(files);
  const out: JsonObject = structuredClone(settings);
  const before = JSON.stringify(out);
  const permissions = isObject(out.permissions) ? out.permissions : {};
  permissions.deny = union(permissions.deny, e.deny);
  out.permissions = permissions;
  const sandbox = isObject(out.sandbox) ? out.sandbox : {};
  // A person who turned it off on purpose keeps it off; the install says so.
  if (sandbox.enabled === undefined) sandbox.enabled = true;
  const fs = isObject(sandbox.filesystem) ? sandbox.filesystem : {};
  fs.denyRead = union(fs.denyRead, e.denyRead);
  fs.denyWrite = union(fs.denyWrite, e.denyWrite);
  sandbox.filesystem = fs;
  out.sandbox = sandbox;
  return {
    settings: out,
    changed: JSON.stringify(out) !== before,
    sandboxOff: sandbox.enabled === false,
  };
}

/**
 * Takes Gatehouse's entries out again, and whatever held only them. `sandbox.enabled` goes
 * with them when nothing else of the sandbox is left (it cannot be told from one the person
 * set; other sandbox settings of theirs keep it).
 */
export function uninstallSandbox(
  settings: JsonObject,
  files: GatehouseFiles,
): { settings: JsonObject; removed: number } {
  const e = entries(files);
  const out: JsonObject = structuredClone(settings);
  let removed = 0;
  const without = (holder: JsonObject, key: string, drop: string[]): void => {
    if (!Array.isArray(holder[key])) return;
    const kept = (holder[key] as unknown[]).filter(
      (x) => !(typeof x === 'string' && drop.includes(x)),
    );
    removed += (holder[key] as unknown[]).length - kept.length;
    if (kept.length) holder[key] = kept;
    else delete holder[key];
  };
  if (isObject(out.permissions)) {
    without(out.permissions, 'deny', e.deny);
    if (!Object.keys(out.permissions).length) delete out.permissions;
  }
  if (isObject(out.sandbox)) {
    const sandbox = out.sandbox;
    if (isObject(sandbox.filesystem)) {
      without(sandbox.filesystem, 'denyRead', e.denyRead);
      without(sandbox.filesystem, 'denyWrite', e.denyWrite);
      if (!Object.keys(sandbox.filesystem).length) delete sandbox.filesystem;
    }
    if (removed && Object.keys(sandbox).every((k) => k === 'enabled') && sandbox.enabled === true)
      delete out.sandbox;
  }
  return { settings: out, removed };
}

/** The list with the entries added once each, in order; a non-list is replaced. */
function union(current: unknown, add: readonly string[]): unknown[] {
  const list: unknown[] = Array.isArray(current) ? [...current] : [];
  const have = new Set(strings(list));
  for (const a of add) if (!have.has(a)) list.push(a);
  return list;
}
