import { spawn } from 'node:child_process';

/** Long enough for a cold Node to start and import a small file; the plugin does no work at import. */
const CHILD_LIMIT_MS = 15_000;

/**
 * Imports the source as OpenCode does with a plugin file: an ES module, every export of which
 * OpenCode calls as a plugin function (so each must be one). Nothing is called: that needs
 * OpenCode. It is imported from its own bytes (a data: URL) because Node would read a `.js`
 * under a `package.json` without `"type": "module"` (as OpenCode writes in `.opencode/`) as
 * CommonJS, where OpenCode's Bun reads it as a module. Gatehouse's plugin imports Node
 * built-ins only, which a data: URL resolves.
 */
const IMPORT_SCRIPT = `
let source = '';
for await (const chunk of process.stdin) source += chunk;
try {
  const mod = await import('data:text/javascript;base64,' + Buffer.from(source).toString('base64'));
  const names = Object.keys(mod);
  if (names.length === 0) throw new Error('it exports no plugin function');
  for (const name of names)
    if (typeof mod[name] !== 'function')
      throw new Error('its export "' + name + '" is not a function (OpenCode calls every export as a plugin)');
} catch (error) {
  process.stderr.write(String(error && error.message ? error.message : error));
  process.exit(1);
}
`;

interface ChildResult {
  code: number | null;
  stderr: string;
}

function runNode(args: string[], input: string): Promise<ChildResult> {
  return new Promise((resolve) => {
    // NODE_OPTIONS could preload code into the check; OpenCode's Bun does not read it.
    const child = spawn(process.execPath, args, {
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_LIMIT_MS);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** Node's syntax error, shortened to where and what: "line 2: SyntaxError: Unexpected token ';'". */
function syntaxProblem(stderr: string): string {
  const where = /\[stdin\]:(\d+)/.exec(stderr)?.[1];
  const what = stderr.split('\n').find((l) => /^\w*Error\b/.test(l.trim()));
  return `${where ? `line ${where}: ` : ''}${(what ?? stderr.trim().slice(-300)).trim()}`;
}

/**
 * Whether the source parses as an ES module, without running any of it (`node --check`): what
 * a file that may have been altered by an agent gets, since importing it would run its code.
 * Returns the problem, or undefined.
 */
export async function pluginSyntaxProblem(source: string): Promise<string | undefined> {
  const r = await runNode(['--input-type=module', '--check'], source);
  return r.code === 0 ? undefined : `a syntax error, ${syntaxProblem(r.stderr)}`;
}

/**
 * Whether the source loads as an OpenCode plugin: parsed, then imported in a child process
 * (its top level runs), each export a function. Only for a source Gatehouse wrote. Returns the
 * problem, or undefined.
 */
export async function pluginLoadProblem(source: string): Promise<string | undefined> {
  const syntax = await pluginSyntaxProblem(source);
  if (syntax) return syntax;
  const r = await runNode(['--input-type=module', '-e', IMPORT_SCRIPT], source);
  if (r.code === 0) return undefined;
  return r.code === null && !r.stderr
    ? `importing it took longer than ${CHILD_LIMIT_MS / 1000} s`
    : `importing it fails: ${r.stderr.trim().slice(-300)}`;
}
