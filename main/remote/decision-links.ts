import { join } from 'node:path';
import type { LinkChannel, LinkDecision } from '../../shared/remote';
import { DEFAULT_DASHBOARD_PORT, type DashboardSettings } from '../../shared/settings/dashboard';
import { ensureAdminToken } from '../server/admin-token';
import {
  newNonce,
  signDecisionToken,
  verifyDecisionToken,
  type DecisionClaims,
  type VerifiedToken,
} from './decision-token';

/** The link signing key: a file in GATEHOUSE_HOME, 0600, created on first use. */
export const linkKeyPath = (home: string): string => join(home, 'link-signing.key');

/**
 * Reads the link signing key, creating it (32 random bytes, mode 0600) on first use. It is a
 * file of its own, not the dashboard secret: rotating the dashboard secret signs browsers out
 * without voiding the links already sent, and no `--rotate-secret` is needed to make one.
 */
export function ensureLinkKey(home: string): string {
  // The same "random token in a 0600 file" as the admin token; only the file differs.
  return ensureAdminToken(linkKeyPath(home));
}

/** The path of a decision page, under the base URL; POST `<page>/act` is a button's URL. */
export const DECISION_PATH = 'd/';

/** Every decision a page link offers; a button's token holds exactly one of them. */
export const PAGE_DECISIONS: readonly LinkDecision[] = ['approve', 'approve_session', 'deny'];

export interface DecisionLinksOptions {
  key: string;
  now: () => number;
  settings: () => DashboardSettings;
  /** The local dashboard's origin (`http://127.0.0.1:PORT/`), when it is serving. */
  localBaseUrl: () => string | undefined;
}

/** A signed link to one request, and when it stops working (epoch ms). */
export interface IssuedLink {
  url: string;
  token: string;
  expiresAt: number;
}

/**
 * Makes decision links. This is the interface the channels that carry a decision off the
 * machine build on (email, SMS, webhook, ntfy, `gatehouse link`):
 *
 * - {@link decisionLinkFor}`(requestId, channel)`: the phone page of the request, offering
 *   every decision; opening it never decides (GET), the page's form POSTs the choice with a
 *   one-time form token. For an email body, an SMS, a webhook payload's `link`, ntfy's click.
 * - {@link actionLinkFor}`(requestId, channel, decision)`: a capability bound to ONE decision.
 *   `url` is `<page>/act`: a plain `POST` to it decides (no body needed; an optional
 *   form/JSON `reason` is kept with a deny): ntfy's `http` action buttons and webhook
 *   callbacks. `token` alone is what a reply-topic message carries back; hand it to
 *   `LinkDecider.redeemAction(token, transport)` (link-decider.ts).
 *
 * Every token is signed (HMAC-SHA256, decision-token.ts) over request id, decisions, expiry
 * (`dashboard.linkExpiryMs`, 24 h by default), a nonce and the channel, and decides at most
 * once. The base URL is `dashboard.remote.publicUrl` when set, else the local dashboard's.
 * The channel is recorded with the decision as `link:<channel>`.
 */
export class DecisionLinks {
  constructor(private readonly o: DecisionLinksOptions) {}

  /** The base URL links start with, ending in `/`; undefined when nothing serves them. */
  baseUrl(): string | undefined {
    const publicUrl = this.o.settings().remote.publicUrl;
    const base = publicUrl || this.o.localBaseUrl();
    if (!base) return undefined;
    return base.endsWith('/') ? base : `${base}/`;
  }

  /** The phone page of a request: every decision, confirmed there by a POST. */
  decisionLinkFor(requestId: string, channel: LinkChannel): string {
    return this.issue(requestId, channel, PAGE_DECISIONS).url;
  }

  /** A button: POST `url` (or redeem `token`) makes exactly `decision`, once. */
  actionLinkFor(requestId: string, channel: LinkChannel, decision: LinkDecision): IssuedLink {
    const page = this.issue(requestId, channel, [decision]);
    return { ...page, url: `${page.url}/act` };
  }

  /** Signs a token for `decisions` and builds its page URL. */
  issue(requestId: string, channel: LinkChannel, decisions: readonly LinkDecision[]): IssuedLink {
    // Whole seconds, as the token carries it.
    const expiresAt = Math.ceil((this.o.now() + this.o.settings().linkExpiryMs) / 1000) * 1000;
    const claims: DecisionClaims = {
      requestId,
      decisions: [...decisions],
      expiresAt,
      nonce: newNonce(),
      channel,
    };
    const token = signDecisionToken(this.o.key, claims);
    // Nothing serves links (desktop mode without dashboard.remote): the link names the
    // default dashboard port, so it still says what it is; `gatehouse link` refuses first.
    const base = this.baseUrl() ?? `http://127.0.0.1:${DEFAULT_DASHBOARD_PORT}/`;
    return { url: `${base}${DECISION_PATH}${token}`, token, expiresAt: claims.expiresAt };
  }

  /** Checks a token's signature and expiry (not its use: see LinkDecider). */
  verify(token: string): VerifiedToken {
    return verifyDecisionToken(this.o.key, token, this.o.now());
  }
}
