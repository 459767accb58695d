import { existsSync } from 'node:fs';
import { hubLinkFiles } from '../../shared/node/hub-files';
import type { AuditVerifyHubResult } from '../../shared/protocol/audit-chain-methods';
import type { AttachedHubAudit } from '../server/attached-services';
import type { AuditChainRepository } from '../store/audit-chain-repository';
import { verifyAuditChain, type HubCopies } from './audit-verifier';

/**
 * `audit verify --hub`: the local chain checked as `audit verify` does, and against the
 * checkpoints the hub keeps for this machine. Not joined, or the hub out of reach: the local
 * verdict alone, with the reason, and the CLI exits 2 (nothing was compared).
 */
export async function verifyAuditChainWithHub(
  chain: AuditChainRepository,
  publicKey: string,
  hub: AttachedHubAudit | undefined,
  /** The data folder, where a join is recorded (the link may not run in this process). */
  home: string,
): Promise<AuditVerifyHubResult> {
  if (!hub) {
    const joined = existsSync(hubLinkFiles(home).link);
    return {
      ...(await verifyAuditChain(chain, publicKey)),
      hub: {
        joined,
        reachable: false,
        error: joined
          ? 'this Gatehouse runs no hub link (the desktop app does not link yet: run `gatehouse daemon`)'
          : 'this machine has not joined a hub (gatehouse hub join URL CODE)',
        checkpoints: 0,
      },
    };
  }
  let copies: HubCopies;
  try {
    copies = await hub.checkpoints();
  } catch (error) {
    return {
      ...(await verifyAuditChain(chain, publicKey)),
      hub: {
        joined: true,
        url: hub.url,
        reachable: false,
        error: error instanceof Error ? error.message : String(error),
        checkpoints: 0,
      },
    };
  }
  const through = copies.checkpoints.at(-1)?.seq;
  return {
    ...(await verifyAuditChain(chain, publicKey, copies)),
    hub: {
      joined: true,
      url: hub.url,
      reachable: true,
      checkpoints: copies.checkpoints.length,
      throughSeq: through,
    },
  };
}
