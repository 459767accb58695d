import { createHmac, randomBytes } from 'node:crypto';
import type { ChatLinkChannel, LinkDecision } from '../../shared/remote';
import { secretsEqual } from '../../shared/node/secrets-equal';
import type { ChatButtonsRepository } from '../store/chat-buttons-repository';
import type { DecisionLinks } from './decision-links';

const MAC_CONTEXT = 'gatehouse-chat-button-v1.';
/** 12 random bytes: 16 base64url characters, unguessable. */
const ID_BYTES = 12;
/** 16 bytes of HMAC-SHA256: 22 characters; `<id>.<mac>` is 39 bytes, under Telegram's 64. */
const MAC_BYTES = 16;
/** The decision of the set-up's test button (no request, no token). */
export const TEST_DECISION = 'test';
/**
 * How long a button's record is kept past its expiry: a late press is then told the button
 * expired, rather than that it is unknown.
 */
const KEPT_AFTER_EXPIRY_MS = 7 * 24 * 3_600_000;
const DATA = /^([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22})$/;

/** What a press's callback data names, or why it names nothing. */
export type ResolvedButton =
  | { ok: true; id: string; requestId: string; decision: string; token: string }
  | { ok: false; reason: 'bad_form' | 'unknown_button' | 'other_app' | 'expired' };

/**
 * A chat app's buttons: each is a short random id and a MAC of it (the app carries the pair
 * back as the button's data), naming a stored record bound to one request and one decision
 * that holds a signed single-use decision token of channel `<app>`. A press is redeemed
 * through that token (LinkDecider.redeemAction): signature, expiry and single use are checked
 * there as for every other link, so a chat press is one more way to spend a link.
 */
export class ChatButtons {
  constructor(
    private readonly o: {
      app: ChatLinkChannel;
      links: DecisionLinks;
      store: ChatButtonsRepository;
      /** The link signing key; the MAC of a button id is keyed by it. */
      key: string;
      now: () => number;
    },
  ) {}

  /** Issues the button of `decision` for the request: its callback data. */
  issue(requestId: string, decision: LinkDecision): string {
    const link = this.o.links.actionLinkFor(requestId, this.o.app, decision);
    const id = randomBytes(ID_BYTES).toString('base64url');
    this.o.store.pruneExpired(this.o.now() - KEPT_AFTER_EXPIRY_MS);
    this.o.store.addButton({
      id,
      app: this.o.app,
      requestId,
      decision,
      token: link.token,
      expiresAt: link.expiresAt,
    });
    return `${id}.${this.mac(id)}`;
  }

  /**
   * The set-up's test button: a record bound to no request (decision `test`, no token), so a
   * press proves the way back works and the presser is allowed, and decides nothing.
   */
  issueTest(): string {
    const id = randomBytes(ID_BYTES).toString('base64url');
    this.o.store.addButton({
      id,
      app: this.o.app,
      requestId: '',
      decision: TEST_DECISION,
      token: '',
      expiresAt: this.o.now() + 3_600_000,
    });
    return `${id}.${this.mac(id)}`;
  }

  /** Reads a press's data: a MAC'd id of a stored button of this app. */
  resolve(data: string): ResolvedButton {
    const m = DATA.exec(data);
    if (!m || !secretsEqual(m[2]!, this.mac(m[1]!))) return { ok: false, reason: 'bad_form' };
    const row = this.o.store.button(m[1]!);
    if (!row) return { ok: false, reason: 'unknown_button' };
    if (row.app !== this.o.app) return { ok: false, reason: 'other_app' };
    if (row.expiresAt <= this.o.now()) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      id: row.id,
      requestId: row.requestId,
      decision: row.decision,
      token: row.token,
    };
  }

  /** Records who pressed a button that decided. */
  used(id: string, by: string): void {
    this.o.store.markUsed(id, this.o.now(), by);
  }

  private mac(id: string): string {
    return createHmac('sha256', this.o.key)
      .update(`${MAC_CONTEXT}${this.o.app}.${id}`)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('base64url');
  }
}
