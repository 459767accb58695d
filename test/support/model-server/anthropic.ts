import type { ServerResponse } from 'node:http';
import {
  openNamedEventStream,
  ScriptedModelServer,
  sendJson,
  type ReceivedRequest,
} from './scripted-server';

export type { ToolStep } from './scripted-server';

/** A content block of a Messages API request, as far as the server reads it. */
interface Block {
  type: string;
  content?: unknown;
  tool_use_id?: string;
  is_error?: boolean;
}

interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: { role: string; content: string | Block[] }[];
}

/** A tool result Claude Code sent back, with its text flattened. */
export interface ToolResult {
  toolUseId: string;
  text: string;
  isError: boolean;
}

/**
 * A scripted Anthropic Messages API on 127.0.0.1 for running the real Claude Code offline.
 * The conversation's n-th model turn (n = tool results so far) makes the n-th tool call of
 * the script, streamed as the API does (`message_start`, `content_block_start` with a
 * `tool_use` block, `input_json_delta`, `content_block_stop`, `message_delta` with
 * `stop_reason: "tool_use"`, `message_stop`); once every step has its result it answers
 * with text. Requests without tools (titles, summaries) get a short text; any other
 * endpoint gets an empty JSON object.
 */
export class AnthropicModelServer extends ScriptedModelServer {
  static start(): Promise<AnthropicModelServer> {
    return new AnthropicModelServer().listen();
  }

  /** Every tool result Claude Code sent back in the last request of the conversation. */
  toolResults(): ToolResult[] {
    const main = this.requests.filter(
      (r) => r.path.startsWith('/v1/messages') && Array.isArray((r.body as MessagesBody)?.tools),
    );
    const last = main.at(-1)?.body as MessagesBody | undefined;
    return resultsOf(last);
  }

  protected answer(request: ReceivedRequest, res: ServerResponse): void {
    const { method, path, body } = request;
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      return sendJson(res, { input_tokens: 100 });
    }
    if (method !== 'POST' || path !== '/v1/messages') return sendJson(res, {});
    const m = (body ?? {}) as MessagesBody;
    const done = resultsOf(m).length;
    const step = Array.isArray(m.tools) && m.tools.length ? this.steps[done] : undefined;
    const model = m.model ?? 'claude-sonnet-4-5';
    const id = `msg_${this.requests.length}`;
    const reply = step
      ? { kind: 'tool' as const, id: `toolu_e2e_${done}`, step }
      : { kind: 'text' as const, text: Array.isArray(m.tools) ? 'All done.' : 'Scripted title' };
    if (!m.stream) {
      return sendJson(res, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content:
          reply.kind === 'tool'
            ? [{ type: 'tool_use', id: reply.id, name: reply.step.name, input: reply.step.input }]
            : [{ type: 'text', text: reply.text }],
        stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 20 },
      });
    }
    const send = openNamedEventStream(res);
    send('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 1 },
      },
    });
    if (reply.kind === 'tool') {
      send('content_block_start', {
        index: 0,
        content_block: { type: 'tool_use', id: reply.id, name: reply.step.name, input: {} },
      });
      send('content_block_delta', {
        index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.step.input) },
      });
    } else {
      send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } });
    }
    send('content_block_stop', { index: 0 });
    send('message_delta', {
      delta: { stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 20 },
    });
    send('message_stop', {});
    res.end();
  }
}

function resultsOf(m: MessagesBody | undefined): ToolResult[] {
  const out: ToolResult[] = [];
  for (const msg of m?.messages ?? []) {
    if (typeof msg.content === 'string') continue;
    for (const b of msg.content) {
      if (b.type !== 'tool_result') continue;
      const text =
        typeof b.content === 'string'
          ? b.content
          : Array.isArray(b.content)
            ? (b.content as { text?: string }[]).map((c) => c.text ?? '').join('\n')
            : '';
      out.push({ toolUseId: b.tool_use_id ?? '', text, isError: b.is_error === true });
    }
  }
  return out;
}
