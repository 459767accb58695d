import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { MachineToHub, readyText, type MachineToHub as Message } from '../../shared/hub-protocol';
import { signText } from '../../shared/node/hub-keys';

/**
 * Whoever answers at the hub's address in place of the hub (its process is gone): it speaks
 * the link protocol, signs `ready` with the key it has (the real hub key, to test what the
 * machine checks beyond it, or another), acknowledges what is published, and sends whatever
 * decisions a test crafts. Everything the machine sends is kept in `received`.
 */
export class RogueHub {
  readonly received: Message[] = [];
  private socket?: WebSocket;
  private constructor(
    private readonly server: Server,
    private readonly wss: WebSocketServer,
  ) {}

  /** `beforeReady`: messages sent after the machine's auth, ahead of `ready`. */
  static async start(
    port: number,
    readyKeyPem: string,
    o: { beforeReady?: unknown[] } = {},
  ): Promise<RogueHub> {
    const server = createServer((_req, res) => res.writeHead(404).end());
    const wss = new WebSocketServer({ server, path: '/api/machines/link' });
    const rogue = new RogueHub(server, wss);
    wss.on('connection', (ws) => {
      const nonce = randomBytes(24).toString('base64url');
      ws.on('message', (data) => {
        const message = MachineToHub.parse(JSON.parse(String(data)));
        rogue.received.push(message);
        if (message.t === 'auth') {
          rogue.socket = ws;
          for (const early of o.beforeReady ?? []) ws.send(JSON.stringify(early));
          ws.send(
            JSON.stringify({
              t: 'ready',
              lastSeq: 0,
              sig: signText(readyKeyPem, readyText(nonce, message.machineId)),
            }),
          );
        } else if (message.t === 'publish')
          ws.send(JSON.stringify({ t: 'ack', seq: message.entries.at(-1)!.seq }));
      });
      ws.send(JSON.stringify({ t: 'challenge', nonce }));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    return rogue;
  }

  get linked(): boolean {
    return this.socket?.readyState === this.socket?.OPEN && this.socket !== undefined;
  }

  send(message: unknown): void {
    this.socket!.send(JSON.stringify(message));
  }

  /** The machine's answers to decisions so far. */
  answers(): Extract<Message, { t: 'answer' }>[] {
    return this.received.filter((m): m is Extract<Message, { t: 'answer' }> => m.t === 'answer');
  }

  async stop(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
