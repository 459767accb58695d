import { calcPrice } from '@pydantic/genai-prices';
import { ErrorCode, GatehouseError } from '../../../shared/protocol/errors';
import { own } from '../../../shared/own';

/** A user price in US dollars per million tokens; wins over the bundled table. */
export interface PriceOverride {
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
}

/** Looks a model up in a maintained price table; `null` when the model is unknown. */
export type PriceLookup = (
  model: string,
  inputTokens: number,
  outputTokens: number,
  provider?: string,
) => { costUsd: number; source: string } | null;

/** The bundled table of `@pydantic/genai-prices` (updated by upgrading the package). */
export const genaiPricesLookup: PriceLookup = (model, inputTokens, outputTokens, provider) => {
  const usage = { input_tokens: inputTokens, output_tokens: outputTokens };
  // "provider:model" names the provider explicitly, as the package's CLI accepts.
  const colon = model.indexOf(':');
  const [providerId, modelId] =
    provider !== undefined
      ? [provider, model]
      : colon > 0
        ? [model.slice(0, colon), model.slice(colon + 1)]
        : [undefined, model];
  let result = null;
  try {
    result = calcPrice(usage, modelId, providerId ? { providerId } : undefined);
    // An unknown provider id must not hide a model the table knows under its own provider.
    if (!result && providerId) result = calcPrice(usage, modelId);
  } catch {
    result = null;
  }
  return result
    ? {
        costUsd: result.total_price,
        source: `genai-prices:${result.provider.id}/${result.model.id}`,
      }
    : null;
};

/**
 * Prices of model calls: the user's overrides (settings `guards.prices.overrides`) first,
 * then the maintained table. An unknown model is never free: without an explicit cost it is
 * an invalid-params error.
 */
export class PriceTable {
  constructor(
    private readonly overrides: () => Record<string, PriceOverride>,
    private readonly lookup: PriceLookup = genaiPricesLookup,
  ) {}

  /** The cost, or `null` when neither the overrides nor the table know the model. */
  find(
    model: string,
    inputTokens: number,
    outputTokens: number,
    provider?: string,
  ): { costUsd: number; source: string } | null {
    const override = own(this.overrides(), model);
    if (override) {
      const costUsd =
        (inputTokens * override.inputPerMTokUsd + outputTokens * override.outputPerMTokUsd) / 1e6;
      return { costUsd, source: 'override' };
    }
    return this.lookup(model, inputTokens, outputTokens, provider);
  }

  /** The cost of a call: `costUsd` when the agent reported one, else the table's price. */
  costOf(params: {
    model: string;
    inputTokens: number;
    outputTokens: number;
    costUsd?: number | undefined;
    provider?: string;
  }): { costUsd: number; source: string } {
    if (params.costUsd !== undefined) return { costUsd: params.costUsd, source: 'reported' };
    const found = this.find(params.model, params.inputTokens, params.outputTokens, params.provider);
    if (found) return found;
    throw new GatehouseError(
      ErrorCode.InvalidParams,
      `unknown model "${params.model}": no price known; report costUsd or add a price override (guards.prices.overrides)`,
      [{ path: 'model', message: 'unknown model without costUsd' }],
    );
  }
}
