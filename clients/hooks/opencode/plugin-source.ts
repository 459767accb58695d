/** The first line of the plugin file: how uninstall knows the file is Gatehouse's own. */
export const PLUGIN_MARKER =
  '// Gatehouse plugin for OpenCode, written by `gatehouse hook opencode --install`.';

/** Time for the relay to start, connect and answer, past its own wait for a person. */
const RELAY_MARGIN_MS = 15_000;

/**
 * The OpenCode plugin `gatehouse hook opencode --install` writes: for each tool call
 * (`tool.execute.before`) it runs the Gatehouse hook relay (`command`, the same command the
 * other agents' hooks run: one round trip to the daemon, the same fail-closed fallback and
 * offline table), and throws to deny — OpenCode gives the thrown message to the model as the
 * tool's error. An approval of an edited call replaces the args OpenCode runs the tool with.
 * A person's approval note is kept by call id and added to the tool's output once it has run
 * (\`tool.execute.after\`): OpenCode gives the model that output.
 * A stop (pause, kill, breaker) also aborts the OpenCode session. Whatever goes
 * wrong on the way (the relay missing, crashing, hanging or printing no answer) denies.
 * Plain JavaScript with Node built-ins only: OpenCode loads it as it is.
 */
export function opencodePluginSource(command: string, waitMs: number): string {
  const limitMs = waitMs + RELAY_MARGIN_MS;
  return `${PLUGIN_MARKER}
// Every tool call asks Gatehouse first; remove with \`gatehouse hook opencode --uninstall\`.
import { spawn } from 'node:child_process';

const COMMAND = ${JSON.stringify(command)};
const LIMIT_MS = ${limitMs};
const START = 'Start Gatehouse (\`gatehouse daemon\`, or the desktop app) and try again';
// OpenCode (1.18.33) reads these tools' args before this hook runs: an edit would not reach them.
const ARGS_READ_BEFORE_HOOK = new Set(['list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource']);
const NO_EDIT = 'Gatehouse: the person approved an edited call that OpenCode cannot run here; ask again';

function relay(payload) {
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    let child;
    try {
      child = spawn('/bin/sh', ['-c', COMMAND], { stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      resolve({ error: String(error) });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ error: 'no answer within ' + LIMIT_MS / 1000 + ' s' });
    }, LIMIT_MS);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ error: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const answer = JSON.parse(out);
        if (answer && typeof answer.decision === 'string') return resolve({ answer });
      } catch {}
      resolve({ error: 'the hook exited ' + code + ' without an answer' + (err ? ': ' + err.trim().slice(-300) : '') });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

// A person's note with an approval, by call id, until the call's output takes it.
const notes = new Map();

export const Gatehouse = async ({ client, directory }) => ({
  'tool.execute.before': async (input, output) => {
    const { answer, error } = await relay({
      event: 'tool.execute.before',
      tool: input.tool,
      sessionID: input.sessionID,
      callID: input.callID,
      args: (output && output.args) || {},
      directory,
    });
    if (error) throw new Error('Gatehouse: ' + error + '; the call is denied. ' + START + '.');
    if (answer.stop) {
      try {
        await client.session.abort({ path: { id: input.sessionID }, sessionID: input.sessionID });
      } catch {}
    }
    if (answer.decision !== 'allow' && answer.decision !== 'defer') throw new Error(answer.reason);
    // An approved edit: OpenCode executes this very args object, so its contents are
    // replaced in place (a new object on output.args would not reach the tool).
    const edited = answer.decision === 'allow' && answer.args && typeof answer.args === 'object';
    if (edited && (ARGS_READ_BEFORE_HOOK.has(input.tool) || !output || !output.args)) throw new Error(NO_EDIT);
    if (edited) {
      for (const key of Object.keys(output.args)) delete output.args[key];
      Object.assign(output.args, answer.args);
    }
    if (answer.decision === 'allow' && typeof answer.note === 'string' && input.callID) {
      // A call that fails never reaches tool.execute.after: keep the newest notes only.
      if (notes.size >= 256) notes.delete(notes.keys().next().value);
      notes.set(input.callID, answer.note);
    }
  },
  'tool.execute.after': async (input, output) => {
    const note = notes.get(input.callID);
    if (note === undefined) return;
    notes.delete(input.callID);
    if (output && typeof output.output === 'string') output.output += '\\n\\n' + note;
  },
});
`;
}
