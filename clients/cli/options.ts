import { InvalidArgumentError, Option } from 'commander';

/**
 * Reads an option's value as a whole number (0 or more). A value that is not one is refused
 * here, where commander names the option and the value ("option '--uses <k>' argument 'x'
 * is invalid. …") and the CLI exits 4, instead of reaching the daemon as NaN (JSON null).
 * A named function of one argument: commander passes the previous value as the second.
 */
export const parseInteger = (value: string): number => {
  if (!/^\d+$/.test(value.trim()))
    throw new InvalidArgumentError('expected a whole number, e.g. 5');
  return Number.parseInt(value, 10);
};

/** Like {@link parseInteger}, for an amount above zero that may have decimals (`what`: e.g. "minutes"). */
export const positiveNumber =
  (what: string, example: string) =>
  (value: string): number => {
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
      throw new InvalidArgumentError(`expected ${what} greater than 0, e.g. ${example}`);
    return n;
  };

/**
 * The `--limit <n>` option the listing commands share, so that every list parses its limit
 * the same way; `fallback` is the default when the option is not given.
 */
export function limitOption(description: string, fallback: number): Option {
  return new Option('--limit <n>', description).default(fallback).argParser(parseInteger);
}
