import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on loopback the test controls: it forwards to a target port (a load balancer
 * in front of hub replicas), can be pointed at another, and can cut every connection and
 * refuse new ones for a while (a machine cut off from the network).
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private cutOff = false;

  private constructor(
    private readonly server: Server,
    private target: number,
  ) {}

  static async start(target: number): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, target);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Sends new connections to `port` from now on (open ones stay where they are). */
  pointAt(port: number): void {
    this.target = port;
  }

  /** Closes every open connection and refuses new ones until {@link restore}. */
  cut(): void {
    this.cutOff = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.cutOff = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.cutOff) return void client.destroy();
    const upstream = connect(this.target, '127.0.0.1');
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('close', () => {
        this.sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
      s.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
