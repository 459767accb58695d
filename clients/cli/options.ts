import { Option } from 'commander';

/**
 * Reads an option's value as a base-10 integer. A named function rather than
 * `Number.parseInt` itself: commander passes the previous value as the second argument,
 * which `parseInt` would take for the radix.
 */
export const parseInteger = (value: string): number => Number.parseInt(value, 10);

/**
 * The `--limit <n>` option the listing commands share, so that every list parses its limit
 * the same way; `fallback` is the default when the option is not given.
 */
export function limitOption(description: string, fallback: number): Option {
  return new Option('--limit <n>', description).default(fallback).argParser(parseInteger);
}
