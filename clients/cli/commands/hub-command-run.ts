import type { z } from 'zod';
import { reportError, UsageError } from '../run-admin';
import { HubCallError } from './hub-http-client';

/** Runs a hub command; a refusal of the hub prints its message (exit 1, 3 when not found, 4 when invalid). */
export async function run(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof HubCallError) {
      console.error(`gatehouse: ${error.message}`);
      process.exitCode =
        error.status === 404 ? 3 : error.status === 400 ? 4 : error.status === 0 ? 2 : 1;
    } else process.exitCode = reportError(error);
  }
}

export const parsed = <T>(schema: z.ZodType<T>, value: unknown, what: string): T => {
  const r = schema.safeParse(value);
  if (!r.success) throw new UsageError(`${what}: ${r.error.issues[0]?.message ?? 'invalid'}`);
  return r.data;
};
