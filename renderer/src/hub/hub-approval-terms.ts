import { HubDecisionTerms } from '../../../shared/hub-protocol';

/** What a person typed in the team dashboard's approval terms (every field may be empty). */
export interface ApprovalTermsForm {
  minutes: string;
  uses: string;
  maxSpend: string;
  message: string;
  /** One condition a line. */
  conditions: string;
}

export const EMPTY_TERMS: ApprovalTermsForm = {
  minutes: '',
  uses: '',
  maxSpend: '',
  message: '',
  conditions: '',
};

/** The dashboard's terms: what `gatehouse --hub URL approve` sends, without an edited call. */
const DashboardTerms = HubDecisionTerms.pick({
  envelope: true,
  message: true,
  conditions: true,
  ruleOffer: true,
});
export type DashboardTerms = ReturnType<typeof DashboardTerms.parse>;

/** A number as typed: undefined when empty, NaN when it is not a plain decimal number. */
const numberOf = (text: string): number | undefined => {
  const t = text.trim();
  if (t === '') return undefined;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
};

const FIELD_NAMES: Record<string, string> = {
  'envelope.minutes': 'Minutes',
  'envelope.uses': 'Uses',
  'envelope.maxSpendUsd': 'Max spend',
  message: 'Message',
  conditions: 'Conditions',
};

/**
 * The approval terms of the form, checked with the schema the hub and the machine check them
 * with (an envelope's minutes, uses and spend as `approve --minutes/--uses/--max-spend`, the
 * message and conditions as `--message/--condition`), or the first problem in words. Empty
 * fields are left out; `ruleOffer` is the offer the person picked, when it applies.
 */
export function approvalTerms(
  form: ApprovalTermsForm,
  ruleOffer?: string,
): { terms: DashboardTerms } | { error: string } {
  const envelope = {
    minutes: numberOf(form.minutes),
    uses: numberOf(form.uses),
    maxSpendUsd: numberOf(form.maxSpend),
  };
  const conditions = form.conditions
    .split('\n')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const raw = {
    ...(Object.values(envelope).some((v) => v !== undefined)
      ? {
          envelope: Object.fromEntries(Object.entries(envelope).filter(([, v]) => v !== undefined)),
        }
      : {}),
    ...(form.message.trim() ? { message: form.message.trim() } : {}),
    ...(conditions.length ? { conditions } : {}),
    ...(ruleOffer ? { ruleOffer } : {}),
  };
  const parsed = DashboardTerms.safeParse(raw);
  if (parsed.success) return { terms: parsed.data };
  const issue = parsed.error.issues[0]!;
  const path = issue.path.filter((p) => typeof p !== 'number').join('.');
  const field = FIELD_NAMES[path] ?? (path || 'The terms');
  const value = path.startsWith('envelope.')
    ? envelope[path.slice('envelope.'.length) as keyof typeof envelope]
    : undefined;
  return {
    error:
      value !== undefined && Number.isNaN(value)
        ? `${field}: enter a number`
        : `${field}: ${issue.message}`,
  };
}

/** True when the terms remember something a rule shapes (an envelope). */
export const hasEnvelope = (t: DashboardTerms): boolean => t.envelope !== undefined;
