import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './http-body';

/** One call an agent's command made to the service it talks to. */
export interface ServiceHit {
  path: string;
  authorization: string | undefined;
  body: string;
}

/**
 * A local service that answers `ok` and records every call with the credential it got: the
 * test's stand-in for the API an agent's command (curl with a token) really calls, so a test can
 * see the real secret arrive where the machine kept it.
 */
export async function startRecordingService(): Promise<{
  url: string;
  hits: ServiceHit[];
  close(): void;
}> {
  const hits: ServiceHit[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      hits.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
