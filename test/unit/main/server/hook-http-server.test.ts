import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookHttpServer, MAX_HOOK_BODY_BYTES } from '../../../../main/server/hook-http-server';

const SECRET = 's'.repeat(43);

function send(
  port: number,
  o: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: o.path ?? '/hooks/claude-code',
        method: o.method ?? 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${SECRET}`,
          ...o.headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      // The server stops reading an oversized body and may reset the socket under the write.
      error.code === 'ECONNRESET' || error.code === 'EPIPE'
        ? resolve({ status: 413, body: '' })
        : reject(error),
    );
    req.end(o.body ?? '{}');
  });
}

describe('HookHttpServer (the http hook endpoint)', () => {
  const seen: [string, string][] = [];
  let server: HookHttpServer;
  let port: number;
  beforeAll(async () => {
    server = new HookHttpServer({
      port: 0,
      secret: SECRET,
      agents: ['claude-code'],
      handle: async (agent, payload) => {
        seen.push([agent, payload]);
        return payload.includes('defer') ? undefined : { decision: 'ok' };
      },
    });
    ({ port } = await server.start());
  });
  afterAll(() => server.close());

  it('hands a JSON POST with the secret to the handler and returns its answer, {} for none', async () => {
    expect(await send(port, { body: '{"x":1}' })).toEqual({
      status: 200,
      body: '{"decision":"ok"}',
    });
    expect(await send(port, { body: '{"defer":true}' })).toEqual({ status: 200, body: '{}' });
    expect(seen).toEqual([
      ['claude-code', '{"x":1}'],
      ['claude-code', '{"defer":true}'],
    ]);
  });

  it('refuses everything else before the handler sees it', async () => {
    const before = seen.length;
    expect((await send(port, { headers: { Authorization: '' } })).status).toBe(401);
    expect((await send(port, { headers: { Authorization: `Basic ${SECRET}` } })).status).toBe(401);
    expect((await send(port, { headers: { Host: `localhost.evil:${port}` } })).status).toBe(403);
    expect((await send(port, { path: '/hooks/codex' })).status).toBe(404);
    expect((await send(port, { path: '/hooks/claude-code/../x' })).status).toBe(404);
    expect((await send(port, { method: 'PUT' })).status).toBe(405);
    expect((await send(port, { headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
    expect((await send(port, { body: 'x'.repeat(MAX_HOOK_BODY_BYTES + 1) })).status).toBe(413);
    expect(seen.length).toBe(before);
  });
});
