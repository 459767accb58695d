import { asPolicyChange, type ActionSpec } from './action-spec';
import { bashActions } from './bash-actions';
import { nameGlob } from './commands/search-tools';
import type { SecretWalk } from './commands/secret-walk';
import type { ShellParser } from './shell-syntax';

/** What one native tool call of an agent means for Gatehouse. */
export type ToolMapping =
  | {
      kind: 'gate';
      /** Candidate actions, most restrictive first; the gate asks about each. */
      candidates: ActionSpec[];
      /** A line for the human: what the tool is about to do. */
      description: string;
      /** The shell command, for shell tools (project policies match commands). */
      command?: string;
      /**
       * The directory the call runs in when the call names one of its own (a shell tool's
       * `dir_path` or `workdir`), as written: relative to the agent's directory, or absolute.
       * Its paths are judged there (run-directory.ts), never in the agent's directory.
       */
      workdir?: string;
    }
  /** The agent's own bookkeeping tools: Gatehouse has no opinion and stays out of the way. */
  | { kind: 'internal' };

export type ToolInput = Record<string, unknown>;

/**
 * One agent's tool table: its native tool names, each with how to read that tool's input.
 * A name not in the table falls to {@link mcpOrOther} with the agent's MCP naming.
 */
export type ToolTable = Readonly<
  Record<string, (input: ToolInput, parser: ShellParser) => ToolMapping>
>;

/** The protocol's limit on an action name. */
const MAX_ACTION = 128;

/** The first of `keys` that holds a non-empty string. */
export function str(input: ToolInput, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const v = input[key];
    if (typeof v === 'string' && v.length) return v;
  }
  return undefined;
}

/**
 * Every path the named fields hold, a string or a list of strings each. An agent reads one
 * field where Gatehouse might read another (Copilot's grep searches `paths` before `path`),
 * so a file tool is judged on all of them: one more path only makes the call ask more.
 */
export function pathsIn(input: ToolInput, ...keys: string[]): string[] {
  const found = new Set<string>();
  for (const key of keys) {
    const v = input[key];
    const list: unknown[] = Array.isArray(v) ? v : [v];
    for (const p of list) if (typeof p === 'string' && p.length) found.add(p);
  }
  return [...found];
}

export const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export const INTERNAL: ToolMapping = { kind: 'internal' };

export const gate = (
  candidates: ActionSpec[],
  description: string,
  command?: string,
): ToolMapping =>
  command === undefined
    ? { kind: 'gate', candidates, description }
    : { kind: 'gate', candidates, description, command };

/** The paths a file tool names: one, several, or none (undefined or an empty list). */
export type ToolPaths = string | readonly string[] | undefined;
const listOf = (paths: ToolPaths): string[] =>
  paths === undefined ? [] : typeof paths === 'string' ? (paths ? [paths] : []) : [...paths];

export const pathSpec = (action: string, paths: ToolPaths): ActionSpec => {
  const list = listOf(paths);
  return asPolicyChange(list.length ? { action, paths: list } : { action });
};

/** A shell command: the shared shell parser finds every action in it. */
export function shellCall(
  command: string,
  parser: ShellParser,
  what?: string,
  verb = 'Run',
): ToolMapping {
  return gate(
    bashActions(command, parser),
    clip(what ? `${what}: ${command}` : `${verb}: ${command}`, 500),
    command,
  );
}

/**
 * A call that runs in a directory of its own (`dir`, as the call names it; none: the agent's
 * directory). The person sees where: `[in dir]` ends the description, as Gemini CLI shows it.
 */
export function inDirectory(mapping: ToolMapping, dir: string | undefined): ToolMapping {
  if (mapping.kind !== 'gate' || dir === undefined) return mapping;
  return { ...mapping, description: clip(`${mapping.description} [in ${dir}]`, 700), workdir: dir };
}

/** The usual shell tool's input, `{command, description}`, read as a {@link shellCall}. */
export const commandCall = (input: ToolInput, parser: ShellParser): ToolMapping =>
  shellCall(str(input, 'command') ?? '', parser, str(input, 'description'));

/** Table entries for tools that only touch the agent's own state: no opinion, no answer. */
export const internalTools = (names: Iterable<string>): ToolTable =>
  Object.fromEntries([...names].map((name) => [name, () => INTERNAL]));

/** A file tool: `read_file`, `write_file`, `edit_file`, `list_files` … on its paths. */
export function fileCall(action: string, paths: ToolPaths, verb: string): ToolMapping {
  const list = listOf(paths);
  return gate([pathSpec(action, list)], `${verb} ${list.length ? list.join(', ') : 'a file'}`);
}

/**
 * What an agent's own search tool prints the lines of, from its input. These tools run
 * `rg --hidden` (Claude Code's Grep, Copilot's grep, Cursor's, OpenCode's) or `git grep
 * --untracked` in a repository (Gemini CLI's grep_search): hidden files are read, what
 * .gitignore keeps out is not. Undefined when the call prints only names or counts
 * (`output_mode`, `names_only`; `namesByDefault`: when it says nothing, as Claude Code's and
 * Copilot's print names) or searches files of a code type (`type`, as `rg -t`). Its file
 * globs (`globKeys`) narrow the names it reads.
 */
export function toolSearchWalk(
  input: ToolInput,
  o: {
    globKeys: readonly string[];
    namesByDefault: boolean;
    /** The glob of one name a file glob of the tool stands for (`*`: any name). */
    nameOf?: (glob: string) => string;
  },
): SecretWalk | undefined {
  const mode = str(input, 'output_mode');
  if (mode ? mode !== 'content' : o.namesByDefault) return undefined;
  if (input.names_only === true || str(input, 'type')) return undefined;
  const globs = pathsIn(input, ...o.globKeys);
  return { hidden: true, ignores: true, only: globs.map(o.nameOf ?? nameGlob) };
}

/** A content search (grep-like) under its paths; `walks`: what it prints the lines of. */
export function searchCall(pattern: string, paths: ToolPaths, walks?: SecretWalk): ToolMapping {
  const list = listOf(paths);
  return gate(
    [{ ...pathSpec('search_files', list), target: pattern, ...(walks ? { walks } : {}) }],
    `Search for "${clip(pattern, 100)}"${list.length ? ` in ${list.join(', ')}` : ''}`,
  );
}

/** A file-name search (glob) under its paths. */
export function globCall(pattern: string, paths: ToolPaths): ToolMapping {
  const list = listOf(paths);
  return gate(
    [{ ...pathSpec('list_files', list), target: pattern }],
    `List files matching ${pattern}${list.length ? ` in ${list.join(', ')}` : ''}`,
  );
}

export function fetchCall(url: string | undefined): ToolMapping {
  return gate(
    [url ? { action: 'web_fetch', target: url } : { action: 'web_fetch' }],
    `Fetch ${url ?? 'a URL'}`,
  );
}

export function webSearchCall(query: string): ToolMapping {
  return gate(
    [{ action: 'web_fetch', target: `search: ${clip(query, 200)}` }],
    `Search the web for "${clip(query, 200)}"`,
  );
}

/**
 * An MCP tool: the action `mcp:server:tool`, which asks unless a rule says otherwise. The
 * paths its input names go with it (as with any tool no table knows), so that a rule allowing
 * the tool never covers Gatehouse's own files or a protected location (a filesystem server's
 * `read_file` of the admin token).
 */
export function mcpCall(server: string, tool: string, input: ToolInput): ToolMapping {
  return gate(
    [withInputPaths(`mcp:${server}:${tool}`.slice(0, MAX_ACTION), input)],
    `Call MCP tool ${tool} of server ${server} ${clip(JSON.stringify(input), 300)}`,
  );
}

/** An action with the paths its tool's input names (see {@link toolInputPaths}), if any. */
const withInputPaths = (action: string, input: ToolInput): ActionSpec => {
  const paths = toolInputPaths(input);
  return paths.length ? { action, paths } : { action };
};

/**
 * Input fields that name files, by their key, as Gemini CLI's own path checks find them; a
 * `uri` or `url` counts when it is a `file://` one (an MCP resource).
 */
const PATH_KEY = /path|file|dir|folder|source|destination|root|cwd|uri|url/i;
const MAX_INPUT_PATHS = 32;

/**
 * The file paths a tool's input names (an MCP tool's, or one no table knows): string values (or arrays of them) under a key that
 * says so (`path`, `file_path`, `paths`, `directory`, `source`, `destination` …), at any depth;
 * a `file://` URL as its path, other URLs not. At most {@link MAX_INPUT_PATHS}; past that, one
 * word the checks cannot resolve, so the call asks.
 */
export function toolInputPaths(input: unknown): string[] {
  const out: string[] = [];
  const visit = (value: unknown, named: boolean, depth: number): void => {
    if (out.length > MAX_INPUT_PATHS || depth > 8) return;
    if (typeof value === 'string') {
      if (!named || !value) return;
      if (value.startsWith('file://')) out.push(decodeURIComponent(value.slice(7)));
      else if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) out.push(value);
    } else if (Array.isArray(value)) {
      for (const v of value) visit(v, named, depth + 1);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, named || PATH_KEY.test(k), depth + 1);
    }
  };
  visit(input, false, 0);
  return out.length > MAX_INPUT_PATHS ? [...out.slice(0, MAX_INPUT_PATHS), '$TOO_MANY_PATHS'] : out;
}

/** A tool no table knows: `tool:Name`, which asks. */
export function otherTool(name: string, input: ToolInput): ToolMapping {
  return gate(
    [withInputPaths(`tool:${name}`.slice(0, MAX_ACTION), input)],
    `Use tool ${name} ${clip(JSON.stringify(input), 300)}`,
  );
}

/**
 * An MCP tool named by its server and its own name, as the agent reports them apart (Gemini
 * CLI's `mcp_context`) rather than joined in one tool name.
 */
export interface McpToolRef {
  server: string;
  tool: string;
}

/**
 * How an agent joins an MCP server's name and a tool's name into one tool name, read back:
 * the server and tool; `unsplittable` when the name is an MCP tool's but its server cannot be
 * told from it (the agent's separator may be inside the server's name); undefined when the
 * name is not an MCP tool's.
 */
export type McpNameSplit = (name: string) => McpToolRef | 'unsplittable' | undefined;

/** An MCP tool whose server the name does not tell: `tool:<name>`, which asks. */
export function unsplitMcpCall(name: string, input: ToolInput): ToolMapping {
  return gate(
    [withInputPaths(`tool:${name}`.slice(0, MAX_ACTION), input)],
    `Call MCP tool ${name} (its server cannot be told from the name) ${clip(JSON.stringify(input), 300)}`,
  );
}

/** `mcp__server__tool`: how Claude Code and Codex name MCP tools. */
export const MCP_DOUBLE_UNDERSCORE = /^mcp__(.+?)__(.+)$/;

/**
 * `name` split at `separator` when it occurs there exactly once (occurrences that overlap
 * count: `a___b` holds `__` twice), with something on each side; else unsplittable, since
 * the separator may then be inside the server's name or the tool's.
 */
export function splitAtSoleSeparator(name: string, separator: string): McpToolRef | 'unsplittable' {
  const at = name.indexOf(separator);
  const after = at + separator.length;
  if (at <= 0 || after >= name.length || name.indexOf(separator, at + 1) !== -1)
    return 'unsplittable';
  return { server: name.slice(0, at), tool: name.slice(after) };
}

const splitByPattern =
  (pattern: RegExp): McpNameSplit =>
  (name) => {
    const m = pattern.exec(name);
    return m?.[1] && m[2] ? { server: m[1], tool: m[2] } : undefined;
  };

/**
 * Maps a call through `table`. A name the table does not hold is an MCP tool when the agent
 * said so (`mcp`, its server and tool reported apart) or when `mcpName` splits it into server
 * and tool; a name that is an MCP tool's but does not split, or whose server's name holds `:`,
 * asks as `tool:<name>`; anything else is an unknown tool.
 */
export function mapThroughTable(
  table: ToolTable,
  tool: string,
  input: ToolInput,
  parser: ShellParser,
  mcpName: RegExp | McpNameSplit = MCP_DOUBLE_UNDERSCORE,
  mcp?: McpToolRef,
): ToolMapping {
  const read = Object.hasOwn(table, tool) ? table[tool] : undefined;
  if (read) return read(input, parser);
  const split = mcp ?? (typeof mcpName === 'function' ? mcpName : splitByPattern(mcpName))(tool);
  if (split === undefined) return otherTool(tool, input);
  // A server named with `:` would read as another server's tool in `mcp:<server>:<tool>`.
  if (split === 'unsplittable' || split.server.includes(':')) return unsplitMcpCall(tool, input);
  return mcpCall(split.server, split.tool, input);
}
