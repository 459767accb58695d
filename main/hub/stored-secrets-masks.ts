import type { RequestRecord } from '../../shared/domain';
import { decisionText, TEAM_WAITING_TITLE_MAX } from '../../shared/hub-protocol';
import { RuleOffers } from '../../shared/hub-rule-offers';
import { hubCopy } from '../../shared/hub-copy';
import { signText, type Ed25519Pair } from '../../shared/node/hub-keys';
import { maskStrings } from '../../shared/request-picture/mask-input';
import { maskSecrets } from '../../shared/request-picture/mask-secrets';
import { canonicalJson } from '../audit/audit-chain';
import { maskedAnswerDetail, maskedShadowSummary } from './masked-arrival';
import type { JobRowOf } from './store/data-job-repo';

/**
 * What one stored row becomes once the secrets in it are masked as the hub masks what arrives
 * now (masked-arrival.ts, shared/hub-copy.ts): the columns to rewrite, or undefined when the
 * row holds nothing the masker recognises (masking masked text changes nothing, so a row done
 * before is left alone). `kept`: a row that holds such text but is left as it is on purpose.
 */
export type StoredRowMask = (
  row: JobRowOf,
  identity: Ed25519Pair,
) => { set?: Record<string, string | null>; kept?: boolean };

const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/**
 * A request's record and its rule offers, as hubCopy makes the copy a machine sends now: the
 * ids stay (the request's, its session's, each offer's digest of the machine's real rule), so
 * a decision or an "always" from the hub still names what the machine holds. Offers that no
 * longer parse (edited in the database) are masked string by string all the same.
 */
export const maskRequestRow: StoredRowMask = (row) => {
  const record = row.record;
  const stored = row.rule_offers ?? null;
  const offers = stored === null ? undefined : RuleOffers.safeParse(stored);
  let masked: unknown;
  let maskedOffers: unknown;
  if (typeof record === 'object' && record !== null && !Array.isArray(record)) {
    const copy = hubCopy(record as RequestRecord, offers?.success ? offers.data : undefined);
    masked = copy.request;
    maskedOffers = offers?.success ? (copy.offers ?? null) : maskStrings(stored);
  } else {
    masked = maskStrings(record);
    maskedOffers = maskStrings(stored);
  }
  const set: Record<string, string | null> = {};
  if (!same(masked, record)) set.record = JSON.stringify(masked);
  if (!same(maskedOffers, stored))
    set.rule_offers = maskedOffers === null ? null : JSON.stringify(maskedOffers);
  return Object.keys(set).length > 0 ? { set } : {};
};

/**
 * A decision the hub made: its reason and terms (an edit made on the unmasked text the hub
 * showed then) masked, the offer it names and every id kept, and signed again with the hub's
 * key so the row still verifies, and a machine that gets it again (it was never answered)
 * takes it: an edit's masked values are put back on the machine where the person left them,
 * as with any edit made on the hub's masked text. The machine's answer is masked as one that
 * arrives now.
 */
export const maskDecisionRow: StoredRowMask = (row, identity) => {
  const set: Record<string, string | null> = {};
  const payload = String(row.payload);
  const masked = maskedDecisionPayload(payload);
  if (masked !== undefined) {
    set.payload = masked;
    set.signature = signText(identity.privateKeyPem, decisionText(masked));
  }
  if (typeof row.detail === 'string') {
    const detail = maskedAnswerDetail(row.detail);
    if (detail !== row.detail) set.detail = detail;
  }
  return Object.keys(set).length > 0 ? { set } : {};
};

function maskedDecisionPayload(payload: string): string | undefined {
  let decision: unknown;
  try {
    decision = JSON.parse(payload);
  } catch {
    // Unreadable as a decision, it may hold an edited command anywhere: masked as one.
    const masked = maskSecrets(payload, { shell: true });
    return masked === payload ? undefined : masked;
  }
  if (typeof decision !== 'object' || decision === null || Array.isArray(decision))
    return undefined;
  const d = decision as Record<string, unknown>;
  const out: Record<string, unknown> = { ...d };
  if (typeof d.reason === 'string') out.reason = maskSecrets(d.reason).slice(0, 2000);
  if (typeof d.terms === 'object' && d.terms !== null) {
    const { ruleOffer, ...terms } = d.terms as Record<string, unknown>;
    out.terms = { ...maskStrings(terms), ...(ruleOffer !== undefined ? { ruleOffer } : {}) };
  }
  return same(out, d) ? undefined : JSON.stringify(out);
}

/** A shadow record's example of the call, as one that arrives now. */
export const maskShadowRow: StoredRowMask = (row) => {
  const summary = String(row.summary);
  const masked = maskedShadowSummary(summary);
  return masked === summary ? {} : { set: { summary: masked } };
};

/** A desktop notice's title (the request's, from its command or description); its link stays. */
export const maskNoticeRow: StoredRowMask = (row) => {
  const notice = row.notice;
  if (typeof notice !== 'object' || notice === null || Array.isArray(notice)) return {};
  const title = (notice as Record<string, unknown>).title;
  if (typeof title !== 'string') return {};
  const masked = maskSecrets(title, { shell: true }).slice(0, TEAM_WAITING_TITLE_MAX);
  return masked === title ? {} : { set: { notice: JSON.stringify({ ...notice, title: masked }) } };
};

/**
 * An audit row's data (a decision's rule text, a machine's refusal detail). A row the chain
 * covers (it has a link) is kept as it is: its link is the hash of its text, and every link
 * and signed checkpoint after it hangs on that, so rewriting it would be exactly the change
 * `hub audit verify` exists to find. It is counted (`kept`) and named in the job's own audit
 * entry instead. The rows written before the chain began are nobody's link: masked.
 */
export const maskAuditRow: StoredRowMask = (row) => {
  if (row.data === null || row.data === undefined) return {};
  const masked = maskStrings(row.data);
  if (same(masked, row.data)) return {};
  if (row.hash !== null && row.hash !== undefined) return { kept: true };
  return { set: { data: JSON.stringify(masked) } };
};
