import type { AuditEvent } from '../../shared/domain';
import type { AuditFinding, AuditVerifyResult } from '../../shared/protocol/audit-chain-methods';
import { verifyText } from '../../shared/node/hub-keys';
import type { AuditChainRepository, ChainCheckpoint } from '../store/audit-chain-repository';
import { CHAIN_GENESIS, chainLink, checkpointText } from './audit-chain';
import { CheckpointWalk, checkCheckpointSignatures } from './checkpoint-walk';

/** Entries read per step; the event loop is given back between steps. */
const PAGE = 2_000;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The hub's copies of this machine's checkpoints (`audit verify --hub`) and the key it pinned. */
export interface HubCopies {
  checkpoints: readonly ChainCheckpoint[];
  pinnedKey?: string | undefined;
}

/**
 * Walks the audit chain from its start and says where the trail and the chain disagree:
 * - an entry whose link does not follow from the one before it: it, or one between them, was
 *   changed, deleted or moved (each entry's number is part of what its link covers);
 * - a link whose entry is gone (deleted);
 * - an entry with a number the chain had passed without it (inserted later);
 * - a checkpoint whose signature fails, or whose hash the chain no longer reaches: the chain
 *   itself was rewritten to hide a change somewhere in that stretch.
 * Two running hashes are kept: one that follows the stored links (so a single change is
 * reported once, where it is, and the rest still checks), and one computed from the start
 * alone (so a chain rewritten to match the change still fails at the next checkpoint).
 */
export async function verifyAuditChain(
  chain: AuditChainRepository,
  publicKey: string,
  hub?: HubCopies,
): Promise<AuditVerifyResult> {
  const findings: AuditFinding[] = [];
  const base = chain.base();
  const startSeq = base?.seq ?? 0;
  const startHash = base ? Buffer.from(base.hash, 'hex') : CHAIN_GENESIS;
  const checkpoints = chain.checkpoints();
  checkCheckpointSignatures(checkpoints, publicKey, "this Gatehouse's", findings);
  if (base && !checkpoints.some((c) => c.seq === base.seq && c.hash === base.hash))
    findings.push({
      kind: 'base',
      seq: base.seq,
      detail: 'the chain starts at a point no signed checkpoint vouches for',
    });
  const walk = new CheckpointWalk(
    checkpoints.filter((c) => c.seq > startSeq),
    startHash,
    findings,
  );
  const hubDue = hub ? checkHubCopies(hub, publicKey, startSeq, base, findings) : [];
  // Computed from the entries alone and checked against the hub's copies only: a chain
  // rewritten here with its local checkpoints re-signed (or deleted) still misses them.
  let pure = startHash;
  // ...and one never reset: a copy the machine sent after a rewrite matches this one.
  let fromStart = startHash;
  let hubAgreed = startSeq;
  let findingsAtHubSegmentStart = findings.length;
  const head = chain.head();
  const sealedThrough = head?.seq ?? startSeq;

  let followed = startHash;
  let lastSeq = startSeq;
  let checked = 0;
  let unsealed = 0;
  let entryCursor = startSeq;
  let linkCursor = startSeq;
  let entries: AuditEvent[] = chain.entriesAfter(entryCursor, PAGE);
  let links = chain.linksAfter(linkCursor, PAGE);
  let ei = 0;
  let li = 0;
  for (;;) {
    if (ei >= entries.length && entries.length === PAGE) {
      entryCursor = entries[entries.length - 1]?.seq ?? entryCursor;
      entries = chain.entriesAfter(entryCursor, PAGE);
      ei = 0;
      await yieldToLoop();
    }
    if (li >= links.length && links.length === PAGE) {
      linkCursor = links[links.length - 1]?.seq ?? linkCursor;
      links = chain.linksAfter(linkCursor, PAGE);
      li = 0;
    }
    const entry = entries[ei];
    const link = links[li];
    if (!entry && !link) break;
    if (entry && (!link || entry.seq < link.seq)) {
      ei++;
      if (entry.seq > sealedThrough) {
        unsealed++;
        continue;
      }
      findings.push({
        kind: 'added',
        seq: entry.seq,
        at: entry.at,
        detail: `entry ${entry.seq} (${entry.type}) was not in the trail when it was sealed`,
      });
      continue;
    }
    if (!link) break;
    li++;
    // The hub's copies of checkpoints at entries that no longer have a link: checked (and
    // gone on from) before this entry is added, so the next copy is compared from there.
    while (hubDue[0] && hubDue[0].seq < link.seq)
      ({ pure, hubAgreed, findingsAtHubSegmentStart } = checkHubCopy(
        hubDue.shift() as ChainCheckpoint,
        { pure, fromStart, hubAgreed, findingsAtHubSegmentStart, atSeq: link.seq },
        findings,
      ));
    if (!entry || link.seq < entry.seq) {
      findings.push({
        kind: 'deleted',
        seq: link.seq,
        detail: `entry ${link.seq} is gone (its link is still there)`,
      });
    } else {
      ei++;
      checked++;
      walk.add(entry);
      pure = chainLink(pure, entry);
      fromStart = chainLink(fromStart, entry);
      if (!chainLink(followed, entry).equals(link.hash))
        findings.push({
          kind: 'changed',
          seq: entry.seq,
          at: entry.at,
          detail: `entry ${entry.seq} (${entry.type}) does not follow from entry ${lastSeq}: it, or an entry between them, was changed, deleted or moved`,
        });
    }
    followed = link.hash;
    lastSeq = link.seq;
    while (hubDue[0] && hubDue[0].seq <= link.seq)
      ({ pure, hubAgreed, findingsAtHubSegmentStart } = checkHubCopy(
        hubDue.shift() as ChainCheckpoint,
        { pure, fromStart, hubAgreed, findingsAtHubSegmentStart, atSeq: link.seq },
        findings,
      ));
    walk.reach(link.seq);
  }
  walk.end();
  for (const c of hubDue)
    findings.push({
      kind: 'hub',
      seq: c.seq,
      detail: `the hub holds a checkpoint signed at ${new Date(c.at).toISOString()} for entry ${c.seq}, past the end of this chain: the newest entries were deleted`,
    });
  const latest = checkpoints.at(-1);
  return {
    ok: findings.length === 0,
    checked,
    sealedThrough,
    unsealed,
    ...(base ? { startsAfter: base.seq } : {}),
    checkpoints: checkpoints.length,
    ...(latest ? { lastCheckpointAt: new Date(latest.at).toISOString() } : {}),
    publicKey,
    findings,
  };
}

/**
 * The hub's copies that the walk compares, after checking what needs no walk: the key the hub
 * pinned is this machine's, each copy is signed by it, and a copy at the chain's start (after
 * retention) names the same hash.
 */
function checkHubCopies(
  hub: HubCopies,
  publicKey: string,
  startSeq: number,
  base: { seq: number; hash: string } | undefined,
  findings: AuditFinding[],
): ChainCheckpoint[] {
  if (hub.pinnedKey !== undefined && hub.pinnedKey !== publicKey)
    findings.push({
      kind: 'hub',
      seq: 0,
      detail: `the hub pinned another audit key for this machine (${hub.pinnedKey.slice(0, 24)}…): this machine's audit key was replaced`,
    });
  const due: ChainCheckpoint[] = [];
  for (const c of hub.checkpoints) {
    if (!verifyText(publicKey, checkpointText(c), c.signature)) {
      findings.push({
        kind: 'hub',
        seq: c.seq,
        detail: `the hub's copy of the checkpoint at entry ${c.seq} is not signed by this machine's audit key`,
      });
      continue;
    }
    if (c.seq > startSeq) due.push(c);
    else if (base && c.seq === base.seq && c.hash !== base.hash)
      findings.push({
        kind: 'hub',
        seq: c.seq,
        detail: `the chain starts (after retention) at entry ${c.seq} with another hash than the hub's copy of that checkpoint`,
      });
  }
  return due.sort((a, b) => a.seq - b.seq);
}

/**
 * Compares the hub's copy of one checkpoint with the hash computed from the entries alone
 * (`atSeq`: the entry the walk stands at), unless a finding since the last copy explains a
 * difference; the walk goes on from the hub's hash either way, the next copy compared from there.
 */
function checkHubCopy(
  c: ChainCheckpoint,
  s: {
    pure: Buffer;
    fromStart: Buffer;
    hubAgreed: number;
    findingsAtHubSegmentStart: number;
    atSeq: number;
  },
  findings: AuditFinding[],
): { pure: Buffer; hubAgreed: number; findingsAtHubSegmentStart: number } {
  // A change found since the last copy explains a difference; so does an earlier difference
  // with the hub when this copy follows the chain as it is here (sent after the rewrite).
  const explained =
    findings.length > s.findingsAtHubSegmentStart ||
    (findings.some((f) => f.kind === 'hub') &&
      c.seq === s.atSeq &&
      s.fromStart.toString('hex') === c.hash);
  const agrees = c.seq === s.atSeq && s.pure.toString('hex') === c.hash;
  if (!agrees && !explained)
    findings.push({
      kind: 'hub',
      seq: c.seq,
      detail: `the hub's copy of the checkpoint signed at ${new Date(c.at).toISOString()} (entry ${c.seq}) no longer matches this chain: an entry after entry ${s.hubAgreed} and at or before entry ${c.seq} was changed, deleted or moved, and the chain rewritten here`,
    });
  return {
    pure: Buffer.from(c.hash, 'hex'),
    hubAgreed: c.seq,
    findingsAtHubSegmentStart: findings.length,
  };
}
