import type { z } from 'zod';
import { ErrorCode, GatehouseError, type FieldProblem } from './errors';

/** Lists each offending field of a failed parse, for the `data` of error -32602. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.join('.') : '(params)',
    message: issue.message,
  }));
}

/** Parses `value` with `schema` or throws the protocol's invalid-params error. */
export function parseParams<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const problems = fieldProblems(parsed.error);
  const summary = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
  throw new GatehouseError(ErrorCode.InvalidParams, `invalid params: ${summary}`, problems);
}
