import { asShellBackground, BACKGROUND_FIELDS } from './sandbox-escape';
import {
  clip,
  commandCall,
  fetchCall,
  gate,
  internalTools,
  fileCall,
  globCall,
  inDirectory,
  mapThroughTable,
  searchCall,
  toolSearchWalk,
  pathsIn,
  pathSpec,
  str,
  webSearchCall,
  type McpNameSplit,
  type McpToolRef,
  type ToolInput,
  type ToolMapping,
  type ToolTable,
} from './tool-mapping';
import type { ShellParser } from './shell-syntax';
import { GEMINI_INTERNAL_TOOLS } from './gemini-internal';

export { GEMINI_INTERNAL_TOOLS } from './gemini-internal';

/** The first http(s) URL in a text: Gemini CLI's web_fetch takes a prompt that holds its URLs. */
const firstUrl = (text: string | undefined): string | undefined =>
  text ? (/https?:\/\/[^\s"'<>)]+/.exec(text)?.[0] ?? undefined) : undefined;

/** `read_many_files{include: string[]}`: one read of every path or glob it includes. */
/**
 * A `git grep` pathspec as a glob of one name: `*` and then a plain suffix (`*.ts`) matches
 * the same files either way; anything else (`src`, `conf*`, whose `*` also matches `/`) is
 * every name.
 */
const pathspecName = (spec: string): string => (/^\*[^*?[\]/\\{}]+$/.test(spec) ? spec : '*');

/**
 * grep_search prints every matching line (unless `names_only`): `git grep --untracked` in a
 * repository, else `grep -r` or its own walk, neither of which honours .gitignore (nor does
 * this walk outside a repository).
 */
const geminiSearch = (input: ToolInput): ToolMapping =>
  searchCall(
    str(input, 'pattern') ?? '',
    pathsIn(input, 'dir_path', 'path'),
    toolSearchWalk(input, {
      globKeys: ['include_pattern', 'include'],
      namesByDefault: false,
      nameOf: pathspecName,
    }),
  );

function readManyCall(input: ToolInput): ToolMapping {
  const paths = pathsIn(input, 'include', 'path', 'dir_path');
  return gate(
    [pathSpec('read_file', paths)],
    `Read ${paths.length ? clip(paths.join(', '), 200) : 'several files'}`,
  );
}

/**
 * Gemini CLI's built-in tools, names and input fields as its BeforeTool hook sees them
 * (checked against the tool declarations Gemini CLI 0.61.0 sends the model, and the payloads
 * its hook receives): `run_shell_command{command, description, dir_path}`,
 * `read_file{file_path}`, `write_file{file_path, content}`, `replace{file_path, …}`,
 * `list_directory{dir_path}`, `glob{pattern, dir_path}`, `grep_search{pattern, dir_path}`,
 * `web_fetch{prompt}` (URLs inside the prompt), `google_web_search{query}`.
 */
export const GEMINI_TOOLS: ToolTable = {
  // `is_background` is judged as the `&` it stands for (sandbox-escape.ts). The command runs
  // in `dir_path` (0.61.0's ShellToolInvocation: `path.resolve(targetDir, dir_path)`, which
  // must be inside the workspace or the project's temp folder), so it is judged there.
  run_shell_command: (input, parser) =>
    inDirectory(
      commandCall(asShellBackground(input, BACKGROUND_FIELDS.gemini), parser),
      str(input, 'dir_path'),
    ),
  read_file: (input) =>
    fileCall('read_file', pathsIn(input, 'file_path', 'absolute_path', 'path'), 'Read'),
  // 0.61.0 declares it (`include`: globs or paths, taken in every workspace folder) but does
  // not offer it to the model; mapped by that declaration, each entry a path the call reads.
  read_many_files: (input) => readManyCall(input),
  write_file: (input) =>
    fileCall('write_file', pathsIn(input, 'file_path', 'absolute_path'), 'Write'),
  replace: (input) => fileCall('edit_file', pathsIn(input, 'file_path', 'absolute_path'), 'Edit'),
  list_directory: (input) => fileCall('list_files', pathsIn(input, 'dir_path', 'path'), 'List'),
  glob: (input) => globCall(str(input, 'pattern') ?? '', pathsIn(input, 'dir_path', 'path')),
  grep_search: (input) => geminiSearch(input),
  search_file_content: (input) => geminiSearch(input),
  web_fetch: (input) => fetchCall(str(input, 'url') ?? firstUrl(str(input, 'prompt'))),
  google_web_search: (input) => webSearchCall(str(input, 'query') ?? ''),
  ...internalTools(GEMINI_INTERNAL_TOOLS),
};

/**
 * Gemini CLI (0.61.0, checked with a real stdio MCP server) names an MCP tool
 * `mcp_<server>_<tool>`, with every character outside `[A-Za-z0-9_.:-]` turned into `_`, no
 * `mcp_` prefix added when the joined name already starts with one, and names over 63
 * characters cut to `<first 30>...<last 30>`. Server names may hold `_` (`mcp_my_srv_x` is
 * server `my` or `my_srv`), so the name alone never tells the server: the BeforeTool payload's
 * `mcp_context` (`server_name`, `tool_name`, as configured) does, and the adapter passes it
 * as `mcp`. An `mcp_` name without it asks as `tool:<name>`.
 */
const GEMINI_MCP_NAME: McpNameSplit = (name) =>
  name.startsWith('mcp_') ? 'unsplittable' : undefined;

export const geminiToolAction = (
  tool: string,
  input: ToolInput,
  parser: ShellParser,
  mcp?: McpToolRef,
): ToolMapping => mapThroughTable(GEMINI_TOOLS, tool, input, parser, GEMINI_MCP_NAME, mcp);
