import { WebSocket } from 'ws';
import { authText, HubToMachine } from '../../shared/hub-protocol';
import { generateEd25519, signText } from '../../shared/node/hub-keys';
import type { TestHub } from './hub';

/** A machine's link to the hub, spoken by hand, and every message the hub sent on it. */
export interface HandLink {
  ws: WebSocket;
  machineId: string;
  received: HubToMachine[];
}

/**
 * Joins a machine to `hub` with a join code (its own fresh key) and opens its link by hand,
 * as an older Gatehouse would: its auth says `version` and, when given, which newer messages
 * it `accepts`. Answers once the hub said the link is ready.
 */
export async function handLink(
  hub: TestHub,
  code: string,
  auth: { version: string; accepts?: string[] },
): Promise<HandLink> {
  const key = generateEd25519();
  const joined = await hub.api('POST', '/api/join', { body: { code, publicKey: key.publicKey } });
  const machineId = joined.body.machineId;
  if (typeof machineId !== 'string') throw new Error(`join failed: ${JSON.stringify(joined)}`);
  const ws = new WebSocket(`${hub.url.replace(/^http/, 'ws')}/api/machines/link`);
  const received: HubToMachine[] = [];
  await new Promise<void>((resolve) =>
    ws.on('message', (data) => {
      const message = HubToMachine.parse(JSON.parse(String(data)));
      received.push(message);
      if (message.t === 'challenge')
        ws.send(
          JSON.stringify({
            t: 'auth',
            machineId,
            sig: signText(key.privateKeyPem, authText(message.nonce, machineId)),
            ...auth,
          }),
        );
      if (message.t === 'ready') resolve();
    }),
  );
  return { ws, machineId, received };
}
