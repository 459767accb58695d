import type { ServerResponse } from 'node:http';
import {
  openEventStream,
  ScriptedModelServer,
  sendJson,
  type ReceivedRequest,
  type ToolResult,
} from './scripted-server';

export type { ToolStep, ToolResult } from './scripted-server';

/** A part of a Gemini `contents` entry, as far as the server reads it. */
interface Part {
  text?: string;
  functionCall?: { name: string; args?: unknown };
  functionResponse?: { name: string; response?: unknown };
}

interface GenerateBody {
  contents?: { role?: string; parts?: Part[] }[];
  tools?: { functionDeclarations?: unknown[] }[];
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: unknown };
}

/**
 * A scripted Gemini API (`v1beta`) on 127.0.0.1 for running the real Gemini CLI offline
 * (`GOOGLE_GEMINI_BASE_URL`). `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`
 * with tools answers the conversation's n-th model turn (n = function responses so far)
 * with the n-th tool call of the script as a `functionCall` part, then text once every
 * step has its `functionResponse`. Other generate calls (Gemini CLI's own checks, which ask
 * for JSON) get a short answer; any other endpoint an empty JSON object.
 */
export class GeminiModelServer extends ScriptedModelServer {
  static start(): Promise<GeminiModelServer> {
    return new GeminiModelServer().listen();
  }

  /** The function responses Gemini CLI sent back in the last conversation request. */
  toolResults(): ToolResult[] {
    const main = this.requests.filter((r) => hasTools(r.body as GenerateBody));
    return responsesOf(main.at(-1)?.body as GenerateBody | undefined);
  }

  protected answer(request: ReceivedRequest, res: ServerResponse): void {
    const match = /^\/v1beta\/models\/([^/:]+):(\w+)$/.exec(request.path);
    if (request.method !== 'POST' || !match) return sendJson(res, {});
    const [, model = 'gemini-2.5-pro', method] = match;
    const body = (request.body ?? {}) as GenerateBody;
    if (method === 'countTokens') return sendJson(res, { totalTokens: 100 });
    const done = responsesOf(body).length;
    const step = hasTools(body) ? this.steps[done] : undefined;
    const part: Part = step
      ? { functionCall: { name: step.name, args: step.input } }
      : { text: sideAnswer(body) };
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
      modelVersion: model,
      responseId: `resp_${this.requests.length}`,
    };
    if (method === 'streamGenerateContent') {
      const send = openEventStream(res);
      send(chunk);
      res.end();
      return;
    }
    sendJson(res, chunk);
  }
}

const hasTools = (body: GenerateBody | undefined): boolean =>
  (body?.tools ?? []).some((t) => (t.functionDeclarations ?? []).length > 0);

/** The text for a turn without a tool call: the end of the conversation, or a JSON check. */
function sideAnswer(body: GenerateBody): string {
  if (hasTools(body)) return 'All done.';
  if (body.generationConfig?.responseMimeType === 'application/json') {
    // Gemini CLI's next-speaker and routing checks: the model has finished, the user speaks.
    return JSON.stringify({
      reasoning: 'scripted',
      next_speaker: 'user',
      model_choice: 'pro',
    });
  }
  return 'Scripted answer';
}

function responsesOf(body: GenerateBody | undefined): ToolResult[] {
  const out: ToolResult[] = [];
  for (const content of body?.contents ?? []) {
    for (const part of content.parts ?? []) {
      if (!part.functionResponse) continue;
      out.push({
        id: part.functionResponse.name,
        text: JSON.stringify(part.functionResponse.response ?? {}),
      });
    }
  }
  return out;
}
