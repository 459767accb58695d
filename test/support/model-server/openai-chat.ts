import type { ServerResponse } from 'node:http';
import {
  openEventStream,
  ScriptedModelServer,
  sendJson,
  type ReceivedRequest,
  type ToolResult,
} from './scripted-server';

export type { ToolStep, ToolResult } from './scripted-server';

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

interface ChatBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: ChatMessage[];
}

/**
 * A scripted OpenAI-compatible Chat Completions API on 127.0.0.1, shared by the Copilot CLI
 * (`COPILOT_PROVIDER_BASE_URL`) and OpenCode (`@ai-sdk/openai-compatible`). `POST
 * /v1/chat/completions` (or `/chat/completions`) with tools answers the n-th model turn
 * (n = `tool` messages so far) with the n-th tool call of the script as a streamed
 * `tool_calls` delta, then text once every step has its result. Requests without tools
 * (titles, summaries) get a short text; `GET .../models` lists the requested model; any
 * other endpoint an empty JSON object.
 */
export class OpenAiChatModelServer extends ScriptedModelServer {
  static start(): Promise<OpenAiChatModelServer> {
    return new OpenAiChatModelServer().listen();
  }

  /** The tool results the agent sent back in the last conversation request. */
  toolResults(): ToolResult[] {
    const main = this.requests.filter(
      (r) => r.path.endsWith('/chat/completions') && hasTools(r.body as ChatBody),
    );
    return resultsOf(main.at(-1)?.body as ChatBody | undefined);
  }

  protected answer(request: ReceivedRequest, res: ServerResponse): void {
    if (request.method === 'GET' && request.path.endsWith('/models')) {
      return sendJson(res, { object: 'list', data: [{ id: 'e2e-model', object: 'model' }] });
    }
    if (request.method !== 'POST' || !request.path.endsWith('/chat/completions')) {
      return sendJson(res, {});
    }
    const body = (request.body ?? {}) as ChatBody;
    const done = resultsOf(body).length;
    const step = hasTools(body) ? this.steps[done] : undefined;
    const id = `chatcmpl-${this.requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'e2e-model';
    const text = hasTools(body) ? 'All done.' : 'Scripted title';
    const toolCall = step && {
      index: 0,
      id: `call_e2e_${done}`,
      type: 'function',
      function: { name: step.name, arguments: JSON.stringify(step.input) },
    };
    const finish = step ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
    if (!body.stream) {
      const message = toolCall
        ? { role: 'assistant', content: null, tool_calls: [{ ...toolCall, index: undefined }] }
        : { role: 'assistant', content: text };
      return sendJson(res, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      });
    }
    const send = openEventStream(res);
    const chunk = (delta: unknown, finishReason: string | null, extra: object = {}) =>
      send({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
        ...extra,
      });
    chunk(
      toolCall
        ? { role: 'assistant', content: null, tool_calls: [toolCall] }
        : { role: 'assistant', content: text },
      null,
    );
    chunk({}, finish, { usage });
    send('[DONE]');
    res.end();
  }
}

const hasTools = (body: ChatBody | undefined): boolean =>
  Array.isArray(body?.tools) && body.tools.length > 0;

function resultsOf(body: ChatBody | undefined): ToolResult[] {
  const out: ToolResult[] = [];
  for (const m of body?.messages ?? []) {
    if (m.role !== 'tool') continue;
    const text =
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? (m.content as { text?: string }[]).map((c) => c.text ?? '').join('\n')
          : '';
    out.push({ id: m.tool_call_id ?? '', text });
  }
  return out;
}
