import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  mayUsePipeBindings,
  connectNetWhenNeeded,
  connectPipe,
  pipeBindings,
} from '../../../../../../shared/node/hooks/relay/pipe-socket';
import type { LineConnector, LineSocket } from '../../../../../../shared/node/rpc/line-socket';
import { RpcChannel } from '../../../../../../shared/node/rpc/rpc-channel';
import { ConnectionError, RpcError } from '../../../../../../shared/node/rpc/rpc-errors';

/**
 * The hook relay's connection (shared/node/hooks/relay/pipe-socket.ts): libuv's pipe handle
 * directly, and Node's `net` where that cannot be used. Both against a real Unix socket, with
 * the same expectations, so the fallback is the same connection.
 */
describe('the hook relay connection', () => {
  it("uses the pipe bindings on this Node (else the hook silently pays for net's start-up)", () => {
    expect(process.platform === 'win32' || pipeBindings() !== null).toBe(true);
  });

  describe.each([
    ['pipe bindings', connectPipe],
    ['net', connectNetWhenNeeded],
  ] as [string, LineConnector][])('over %s', (_name, connector) => {
    let dir: string;
    let socketPath: string;
    let server: Server;
    let peers: Socket[];
    let chunks: string[];

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'gatehouse-pipe-'));
      chmodSync(dir, 0o700);
      socketPath = join(dir, 'agent.sock');
      peers = [];
      chunks = [];
      server = createServer((s) => {
        peers.push(s);
        s.on('data', (c) => chunks.push(c.toString('utf8')));
      });
      await new Promise<void>((r) => server.listen(socketPath, () => r()));
    });
    afterEach(async () => {
      for (const p of peers) p.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    });

    const open = async () => {
      const data: string[] = [];
      let closes = 0;
      const closed = new Promise<void>((resolve) => {
        void connector(socketPath, 2000, {
          onData: (t) => data.push(t),
          onClose: () => {
            closes++;
            resolve();
          },
        }).then((s) => (socket = s));
      });
      let socket: LineSocket | undefined;
      await until(() => socket !== undefined && peers.length === 1);
      return { socket: socket!, data, closed, closes: () => closes };
    };

    it('sends what one tick writes in one write, and hands on whole lines, UTF-8 intact', async () => {
      const c = await open();
      c.socket.sendTogetherThisTick();
      c.socket.write('{"a":1}\n');
      c.socket.write('{"b":2}\n');
      await until(() => chunks.join('') === '{"a":1}\n{"b":2}\n');
      expect(chunks).toEqual(['{"a":1}\n{"b":2}\n']);

      // A line cut in two, inside a multi-byte character: the text arrives whole and right.
      const line = Buffer.from('{"reason":"déjà vu — ✓"}\n{"next":true}\n', 'utf8');
      const cut = line.indexOf(Buffer.from('✓')) + 1;
      peers[0]!.write(line.subarray(0, cut));
      // Not a wait for an event: a pause so that the two halves arrive as two reads.
      await new Promise((r) => setTimeout(r, 20));
      peers[0]!.write(line.subarray(cut));
      await until(() => c.data.join('').includes('"next"'));
      expect(c.data.join('')).toBe(line.toString('utf8'));
    });

    it('reports the close once, when either side closes, and closing again does nothing', async () => {
      const mine = await open();
      mine.socket.close();
      mine.socket.close();
      await mine.closed;
      expect(mine.socket.open).toBe(false);
      await until(() => peers[0]!.closed || peers[0]!.readableEnded);

      peers.length = 0;
      const theirs = await open();
      peers[0]!.end();
      await theirs.closed;
      expect(theirs.socket.open).toBe(false);
      expect(theirs.closes()).toBe(1);
    });

    it('fails to connect with "Gatehouse is not running" when nothing listens', async () => {
      const on = { onData: () => undefined, onClose: () => undefined };
      const missing = connector(join(dir, 'nothing.sock'), 2000, on);
      await expect(missing).rejects.toBeInstanceOf(ConnectionError);
      await expect(missing).rejects.toThrow(/Gatehouse is not running \(socket .*nothing\.sock\)/);
      // A socket file nobody listens on any more.
      const stale = join(dir, 'stale.sock');
      const gone = createServer();
      await new Promise<void>((r) => gone.listen(stale, () => r()));
      await new Promise<void>((r) => gone.close(() => r()));
      await expect(connector(stale, 2000, on)).rejects.toThrow(/Gatehouse is not running/);
      writeFileSync(join(dir, 'not-a-socket'), '');
      await expect(connector(join(dir, 'not-a-socket'), 2000, on)).rejects.toBeInstanceOf(
        ConnectionError,
      );
    });

    it('carries JSON-RPC calls and their errors (RpcChannel over it)', async () => {
      server.removeAllListeners('connection');
      server.on('connection', (s) => {
        peers.push(s);
        let buffer = '';
        s.on('data', (c) => {
          buffer += c.toString('utf8');
          let nl: number;
          while ((nl = buffer.indexOf('\n')) !== -1) {
            const { id, method } = JSON.parse(buffer.slice(0, nl)) as {
              id: number;
              method: string;
            };
            buffer = buffer.slice(nl + 1);
            if (method === 'hold') continue;
            s.write(
              method === 'fail'
                ? `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32001, message: 'no' } })}\n`
                : `${JSON.stringify({ jsonrpc: '2.0', id, result: { echoed: method } })}\n`,
            );
          }
        });
      });
      const rpc = new RpcChannel(socketPath);
      await rpc.connectWith(connector, 2000);
      expect(rpc.connected).toBe(true);
      await expect(rpc.call('ping')).resolves.toEqual({ echoed: 'ping' });
      await expect(rpc.call('fail')).rejects.toBeInstanceOf(RpcError);
      // A call still waiting when the connection closes fails, as Gatehouse being gone.
      const held = rpc.call('hold');
      await until(() => chunks.length > 0 || peers.length === 1);
      peers[0]!.destroy();
      await expect(held).rejects.toThrow(/connection to Gatehouse closed/);
      expect(rpc.connected).toBe(false);
      rpc.close();
    });
  });
});

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('when the hook may use the pipe bindings', () => {
  const host = { platform: 'linux' as const, nodeVersion: '20.20.0', execArgv: [], env: {} };
  it('only on a verified Node major, off Windows, and where Node would not warn', () => {
    expect(mayUsePipeBindings(host)).toBe(true);
    expect(mayUsePipeBindings({ ...host, nodeVersion: '22.1.0' })).toBe(false);
    expect(mayUsePipeBindings({ ...host, nodeVersion: '19.9.0' })).toBe(false);
    expect(mayUsePipeBindings({ ...host, platform: 'win32' })).toBe(false);
    expect(mayUsePipeBindings({ ...host, execArgv: ['--throw-deprecation'] })).toBe(false);
    expect(mayUsePipeBindings({ ...host, env: { NODE_OPTIONS: '--pending-deprecation' } })).toBe(
      false,
    );
    expect(mayUsePipeBindings({ ...host, env: { NODE_PENDING_DEPRECATION: '1' } })).toBe(false);
  });
});
