import type { ServerResponse } from 'node:http';
import {
  openNamedEventStream,
  ScriptedModelServer,
  sendJson,
  type ReceivedRequest,
} from './scripted-server';

/** One function call the scripted model makes (Codex's shell tool: `exec_command` {cmd}). */
export interface FunctionStep {
  name: string;
  arguments: Record<string, unknown>;
  /** The tool's namespace, for a tool Codex declares inside one (its MCP tools: `mcp__<server>`). */
  namespace?: string;
  /**
   * A freeform (custom) tool's call instead of a function's: its text input, as Codex's
   * apply_patch takes the patch (`custom_tool_call`, answered by `custom_tool_call_output`).
   */
  custom?: string;
}

/** A function call's output Codex sent back. */
export interface FunctionOutput {
  callId: string;
  output: string;
}

interface InputItem {
  type?: string;
  call_id?: string;
  output?: unknown;
}

interface ResponsesBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  input?: InputItem[] | string;
}

/**
 * A scripted OpenAI Responses API on 127.0.0.1 for running the real Codex CLI offline. The
 * n-th model turn (n = function_call_output items in the request) makes the n-th function
 * call of the script, streamed as the API does (`response.created`,
 * `response.output_item.added` and `response.output_item.done` with a `function_call` item,
 * `response.completed`); once every step has its output it answers with a text message.
 * Any other endpoint gets an empty JSON object.
 */
export class ResponsesModelServer extends ScriptedModelServer<FunctionStep> {
  /** `url` is the base URL a Codex provider's `base_url` takes (`…/v1`). */
  static start(): Promise<ResponsesModelServer> {
    return new ResponsesModelServer().listen('/v1');
  }

  /** Every function output Codex sent back in the last model request. */
  outputs(): FunctionOutput[] {
    const last = this.requests.filter((r) => r.path.endsWith('/responses')).at(-1);
    return outputsOf(last?.body as ResponsesBody | undefined);
  }

  protected answer(request: ReceivedRequest, res: ServerResponse): void {
    const { method, path, body } = request;
    if (method !== 'POST' || !path.endsWith('/responses')) return sendJson(res, {});
    const r = (body ?? {}) as ResponsesBody;
    const done = outputsOf(r).length;
    const step = this.steps[done];
    const id = `resp_${this.requests.length}`;
    const item =
      step?.custom !== undefined
        ? {
            type: 'custom_tool_call',
            id: `ctc_${this.requests.length}`,
            call_id: `call_e2e_${done}`,
            name: step.name,
            input: step.custom,
            status: 'completed',
          }
        : step
          ? {
              type: 'function_call',
              id: `fc_${this.requests.length}`,
              call_id: `call_e2e_${done}`,
              name: step.name,
              ...(step.namespace ? { namespace: step.namespace } : {}),
              arguments: JSON.stringify(step.arguments),
              status: 'completed',
            }
          : {
              type: 'message',
              id: `msg_${this.requests.length}`,
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'All done.', annotations: [] }],
            };
    const usage = {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 120,
    };
    const response = { id, object: 'response', model: r.model ?? 'gpt-5', status: 'in_progress' };
    const send = openNamedEventStream(res);
    send('response.created', { response });
    send('response.output_item.added', {
      output_index: 0,
      item:
        step?.custom !== undefined
          ? { ...item, input: '' }
          : step
            ? { ...item, arguments: '' }
            : { ...item, content: [] },
    });
    send('response.output_item.done', { output_index: 0, item });
    send('response.completed', {
      response: { ...response, status: 'completed', output: [item], usage },
    });
    res.end();
  }
}

function outputsOf(r: ResponsesBody | undefined): FunctionOutput[] {
  if (!r || !Array.isArray(r.input)) return [];
  return r.input
    .filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output')
    .map((i) => ({
      callId: i.call_id ?? '',
      output: typeof i.output === 'string' ? i.output : JSON.stringify(i.output),
    }));
}
