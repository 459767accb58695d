import { z } from 'zod';
import { MachineName } from '../../shared/hub-protocol';
import { signText, verifyText, type Ed25519Pair } from '../../shared/node/hub-keys';

/** What a decision link names: one request of one machine, and the decision chosen. */
export const LinkParams = z.object({
  machine: MachineName,
  request: z.string().min(1).max(128),
  decision: z.enum(['approve', 'deny', 'open']),
  sig: z.string().min(40).max(200),
});
export type LinkParams = z.infer<typeof LinkParams>;

const linkText = (p: Omit<LinkParams, 'sig'>): string =>
  `gatehouse-hub-link-v1\n${p.machine}\n${p.request}\n${p.decision}`;

/**
 * The links a hub notification carries: the team dashboard's page of the request, with a
 * decision chosen or not, signed with the hub's key so a receiver (and the dashboard) can
 * tell a link the hub made from one somebody wrote. A link decides nothing by itself: the
 * person signs in and confirms.
 */
export function hubRequestLinks(
  identity: Ed25519Pair,
  publicUrl: string,
  machine: string,
  requestId: string,
): { page: string; approve: string; deny: string } {
  const link = (decision: LinkParams['decision']) => {
    const p = { machine, request: requestId, decision };
    const url = new URL('/decide', publicUrl);
    for (const [k, v] of Object.entries(p)) url.searchParams.set(k, v);
    url.searchParams.set('sig', signText(identity.privateKeyPem, linkText(p)));
    return url.toString();
  };
  return { page: link('open'), approve: link('approve'), deny: link('deny') };
}

/** True when the hub with this public key signed the link's parameters. */
export const linkSignedBy = (publicKey: string, p: LinkParams): boolean =>
  verifyText(publicKey, linkText(p), p.sig);
