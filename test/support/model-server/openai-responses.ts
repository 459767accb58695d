import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedRequest } from './anthropic';

/** One function call the scripted model makes (Codex's shell tool: `exec_command` {cmd}). */
export interface FunctionStep {
  name: string;
  arguments: Record<string, unknown>;
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
export class ResponsesModelServer {
  readonly requests: ReceivedRequest[] = [];
  private steps: FunctionStep[] = [];

  private constructor(
    private readonly server: Server,
    /** The base URL a Codex provider's `base_url` takes (`…/v1`). */
    readonly url: string,
  ) {}

  static async start(): Promise<ResponsesModelServer> {
    const holder: { self?: ResponsesModelServer } = {};
    const server = createServer((req, res) => void holder.self!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const self = new ResponsesModelServer(server, `http://127.0.0.1:${port}/v1`);
    holder.self = self;
    return self;
  }

  /** The function calls the model makes in the next conversation, in order. */
  script(steps: FunctionStep[]): void {
    this.steps = steps;
    this.requests.length = 0;
  }

  /** Every function output Codex sent back in the last model request. */
  outputs(): FunctionOutput[] {
    const last = this.requests.filter((r) => r.path.endsWith('/responses')).at(-1);
    return outputsOf(last?.body as ResponsesBody | undefined);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: kept as text */
    }
    const path = (req.url ?? '/').split('?')[0]!;
    this.requests.push({ method: req.method ?? 'GET', path, body });
    if (req.method !== 'POST' || !path.endsWith('/responses')) return json(res, {});
    const r = (body ?? {}) as ResponsesBody;
    const done = outputsOf(r).length;
    const step = this.steps[done];
    const id = `resp_${this.requests.length}`;
    const item = step
      ? {
          type: 'function_call',
          id: `fc_${this.requests.length}`,
          call_id: `call_e2e_${done}`,
          name: step.name,
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
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (event: string, data: object) =>
      res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    send('response.created', { response });
    send('response.output_item.added', {
      output_index: 0,
      item: step ? { ...item, arguments: '' } : { ...item, content: [] },
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
    .filter((i) => i.type === 'function_call_output')
    .map((i) => ({
      callId: i.call_id ?? '',
      output: typeof i.output === 'string' ? i.output : JSON.stringify(i.output),
    }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
  });
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
