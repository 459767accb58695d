import {
  TeamPolicyBundle,
  teamPolicyText,
  type ShadowRecord,
  type TeamPolicyInfo,
} from '../../shared/policy/team-policy';
import { verifyText } from '../../shared/node/hub-keys';
import type { TeamPolicySource, TeamPolicyView } from '../engine/policy/team-rules';
import type { TeamPolicyRepository } from '../store/team-policy-repository';

/** What became of a bundle the hub sent. */
export type BundleOutcome =
  | { outcome: 'accepted'; version: number }
  | { outcome: 'unchanged'; version: number }
  | { outcome: 'refused'; reason: 'bad_signature' | 'invalid' | 'not_newer'; detail: string };

interface Accepted {
  bundle: TeamPolicyBundle;
  acceptedAt: number;
  hubKey: string;
  payload: string;
}

/**
 * The team policy a machine runs: the one bundle it accepted from its hub, kept in the data
 * folder's database so it holds across restarts and while the hub is away. A bundle is taken
 * only when the pinned hub key signed its exact text and its version is newer than the one
 * held (a replay or a rollback is refused); every refusal is audited and shown in `status`.
 * At each start the stored bundle is checked again against the pinned key, so a row written
 * into the database by hand is refused like a forged message.
 */
export class TeamPolicyBook implements TeamPolicySource {
  private held: Accepted | undefined;
  private view: TeamPolicyView | undefined;
  private lastRefused: { at: number; reason: string } | undefined;
  private onShadow: (() => void) | undefined;

  constructor(
    private readonly d: {
      repo: TeamPolicyRepository;
      now: () => number;
      /** The hub key pinned at join (link.json); undefined when the machine is not joined. */
      pinnedKey: () => string | undefined;
      audit: (type: string, data: Record<string, unknown>) => void;
    },
  ) {
    this.loadStored();
  }

  private loadStored(): void {
    const stored = this.d.repo.load();
    if (!stored) return;
    // Joined: the key pinned now; left since: the key it was accepted under.
    const key = this.d.pinnedKey() ?? stored.hubKey;
    const checked = this.check(stored.payload, stored.signature, key);
    if (!checked.ok) {
      this.refused(checked.reason, `the stored team policy: ${checked.detail}`, stored.version);
      return;
    }
    this.take({
      bundle: checked.bundle,
      acceptedAt: stored.acceptedAt,
      hubKey: key,
      payload: stored.payload,
    });
  }

  private check(
    payload: string,
    sig: string,
    key: string,
  ):
    | { ok: true; bundle: TeamPolicyBundle }
    | { ok: false; reason: 'bad_signature' | 'invalid'; detail: string } {
    if (!verifyText(key, teamPolicyText(payload), sig))
      return { ok: false, reason: 'bad_signature', detail: 'not signed by the pinned hub key' };
    try {
      return { ok: true, bundle: TeamPolicyBundle.parse(JSON.parse(payload)) };
    } catch {
      return { ok: false, reason: 'invalid', detail: 'signed, but not a team policy bundle' };
    }
  }

  private take(a: Accepted): void {
    this.held = a;
    this.view = { version: a.bundle.version, rules: a.bundle.rules };
  }

  private refused(reason: string, detail: string, version?: number): void {
    this.lastRefused = { at: this.d.now(), reason: `${reason}: ${detail}` };
    this.d.audit('team_policy.refused', {
      reason,
      detail,
      ...(version !== undefined ? { version } : {}),
      ...(this.held ? { running: this.held.bundle.version } : {}),
    });
  }

  /** The version held, 0 when none: what the link tells the hub at each connect. */
  version(): number {
    return this.held?.bundle.version ?? 0;
  }

  /** A bundle from the hub this machine is joined to, checked against the key it pinned. */
  receive(payload: string, sig: string, pinnedKey: string): BundleOutcome {
    const checked = this.check(payload, sig, pinnedKey);
    if (!checked.ok) {
      this.refused(checked.reason, checked.detail);
      return { outcome: 'refused', ...checked };
    }
    const { bundle } = checked;
    const held = this.held;
    if (held && held.payload === payload) return { outcome: 'unchanged', version: bundle.version };
    // The same hub: only a newer version. A hub joined since (another key) starts afresh.
    if (held && held.hubKey === pinnedKey && bundle.version <= held.bundle.version) {
      const detail = `version ${bundle.version} is not newer than version ${held.bundle.version}, which this machine runs`;
      this.refused('not_newer', detail, bundle.version);
      return { outcome: 'refused', reason: 'not_newer', detail };
    }
    const acceptedAt = this.d.now();
    this.d.repo.save({
      version: bundle.version,
      payload,
      signature: sig,
      hubKey: pinnedKey,
      acceptedAt,
    });
    this.take({ bundle, acceptedAt, hubKey: pinnedKey, payload });
    this.d.audit('team_policy.accepted', {
      version: bundle.version,
      publishedAt: bundle.publishedAt,
      ...(held ? { previous: held.bundle.version } : {}),
      rules: bundle.rules.map(
        (r) => `${r.ruleId} ${r.action} ${r.tier}${r.mode === 'shadow' ? ' (shadow)' : ''}`,
      ),
    });
    return { outcome: 'accepted', version: bundle.version };
  }

  current(): TeamPolicyView | undefined {
    return this.view;
  }

  info(): TeamPolicyInfo | undefined {
    const held = this.held;
    if (!held)
      return this.lastRefused
        ? { version: 0, enforced: 0, shadow: 0, lastRefused: this.lastRefused }
        : undefined;
    const shadow = held.bundle.rules.filter((r) => r.mode === 'shadow').length;
    return {
      version: held.bundle.version,
      publishedAt: held.bundle.publishedAt,
      acceptedAt: held.acceptedAt,
      enforced: held.bundle.rules.length - shadow,
      shadow,
      ...(this.lastRefused ? { lastRefused: this.lastRefused } : {}),
    };
  }

  shadowed(record: Omit<ShadowRecord, 'id'>): void {
    try {
      this.d.repo.addShadow(record);
    } catch (error) {
      // A shadow rule only observes: a full disk never fails the call it watched.
      console.error('gatehouse: could not keep a shadow record of the team policy:', error);
      return;
    }
    this.onShadow?.();
  }

  /** Called after each new shadow record (the link sends it up). */
  whenShadowed(fn: (() => void) | undefined): void {
    this.onShadow = fn;
  }

  unsentShadow(limit: number): ShadowRecord[] {
    return this.d.repo.unsentShadow(limit);
  }

  shadowDelivered(upTo: number): void {
    this.d.repo.markShadowSent(upTo);
  }
}
