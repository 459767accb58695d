/**
 * Writes the field tables of docs/protocol.md from the zod schemas of shared/protocol, so the
 * document cannot drift from the wire. The prose around them is written by hand; the tables
 * sit between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` markers and are
 * replaced wholesale. `scripts/protocol-doc.mjs` runs this on the file;
 * test/unit/shared/protocol/protocol-doc.test.ts fails when the committed file differs from its output.
 *
 * Pure: text in, text out (no file access), so the test and the script share it.
 */
import { z } from 'zod';
import { Verdict } from '../shared/domain';
import * as agentSchemas from '../shared/protocol/agent-methods';
import { ErrorCode } from '../shared/protocol/errors';
import { adminMethods, agentMethods } from '../shared/protocol/method-map';

/** What each JSON-RPC error code means. A new code must be described here, or rendering fails. */
const ERROR_MEANINGS: Record<keyof typeof ErrorCode, string> = {
  ParseError: 'parse error (the line is not JSON)',
  InvalidRequest: 'invalid request (not a JSON-RPC 2.0 object, or a batch)',
  MethodNotFound: 'method not found, or not allowed for this role',
  InvalidParams: 'invalid params; `data` lists each offending field as `{ path, message }`',
  InternalError:
    'the write failed (disk full, I/O error); `data.reason` is `"DISK_FULL"` or `"IO_ERROR"`',
  Unauthorized: 'unauthorized (`auth` failed)',
  NotFound: 'not found (unknown requestId, session; or a request of another session)',
  AgentPaused:
    'the agent is paused or killed; `data.reason` is `"AGENT_PAUSED"` or `"AGENT_KILLED"`. A killed agent may still call `check` (`allowed: false`) and `end`; a kill cancels its waiting requests (reason `agent killed`)',
  RateLimited: 'rate limited (for example too many queued requests in one session)',
  FrameTooLarge: 'frame too large (a line over 1 MiB); the connection is closed',
  HelloRequired: '`hello` required before any other call',
};

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  description?: string;
};

interface Row {
  name: string;
  type: string;
  required: boolean;
  notes: string;
}

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;

function resolve(s: JsonSchema, root: JsonSchema): JsonSchema {
  if (!s.$ref) return s;
  const name = s.$ref.replace(/^#\/\$defs\//, '');
  return root.$defs?.[name] ?? {};
}

const isObject = (s: JsonSchema): boolean =>
  s.type === 'object' && s.properties !== undefined && Object.keys(s.properties).length > 0;

/** The type column: JSON types, enums as their literals, arrays with `[]`. */
function typeOf(raw: JsonSchema, root: JsonSchema): string {
  const s = resolve(raw, root);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map((u) => typeOf(u, root)).join(' | ');
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (s.type === 'array') {
    const item = s.items ? typeOf(s.items, root) : 'any';
    return item.includes('|') ? `(${item})[]` : `${item}[]`;
  }
  if (s.type === 'object') return 'object';
  if (s.type === 'integer' || s.type === 'number' || s.type === 'string') return s.type;
  if (s.type === 'boolean' || s.type === 'null') return s.type;
  return 'any JSON';
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** The bounds column: lengths, ranges, item counts, defaults. */
function notesOf(raw: JsonSchema, root: JsonSchema): string {
  const s = resolve(raw, root);
  const notes: string[] = [];
  if (s.minLength !== undefined || s.maxLength !== undefined)
    notes.push(`${s.minLength ?? 0}..${s.maxLength ?? '∞'} chars`);
  if (s.exclusiveMinimum !== undefined) notes.push(`> ${s.exclusiveMinimum}`);
  if (s.minimum !== undefined && s.minimum > -SAFE) notes.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < SAFE) notes.push(`≤ ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) notes.push(`< ${s.exclusiveMaximum}`);
  if (s.minItems !== undefined && s.minItems > 0) notes.push(`at least ${s.minItems} items`);
  if (s.maxItems !== undefined) notes.push(`at most ${s.maxItems} items`);
  if (s.type === 'array' && s.items) {
    const item = notesOf(s.items, root);
    if (item) notes.push(`each ${item}`);
  }
  if (s.type === 'object' && !isObject(s) && s.additionalProperties !== false)
    notes.push('any JSON object');
  if (s.default !== undefined) notes.push(`default ${JSON.stringify(s.default)}`);
  if (s.description) notes.push(s.description);
  return notes.join('; ');
}

/** Flattens an object schema into rows, nested fields as `a.b` and `list[].field`. */
function rowsOf(raw: JsonSchema, root: JsonSchema, prefix = '', depth = 0): Row[] {
  const s = resolve(raw, root);
  const required = new Set(s.required ?? []);
  const rows: Row[] = [];
  for (const [key, fieldRaw] of Object.entries(s.properties ?? {})) {
    const field = resolve(fieldRaw, root);
    const name = `${prefix}${key}`;
    rows.push({
      name,
      type: typeOf(field, root),
      required: required.has(key) && field.default === undefined,
      notes: notesOf(field, root),
    });
    if (depth >= 3) continue;
    if (isObject(field)) rows.push(...rowsOf(field, root, `${name}.`, depth + 1));
    const item = field.type === 'array' && field.items ? resolve(field.items, root) : undefined;
    if (item && isObject(item)) rows.push(...rowsOf(item, root, `${name}[].`, depth + 1));
  }
  return rows;
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** A markdown table of a schema's fields, or a sentence when it has none. */
function fieldTable(schema: z.ZodType, io: 'input' | 'output'): string {
  const json = toSchema(schema, io);
  const rows = rowsOf(json, json);
  if (!rows.length) return '(no fields)';
  return [
    '| field | type | required | bounds, default |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| \`${r.name}\` | ${cell(r.type)} | ${r.required ? 'yes' : 'no'} | ${cell(r.notes)} |`,
    ),
  ].join('\n');
}

function methodTables(params: z.ZodType, result: z.ZodType): string {
  return `params:\n\n${fieldTable(params, 'input')}\n\nresult:\n\n${fieldTable(result, 'output')}`;
}

/** Agent-to-server notifications: every `…Notification` schema of agent-methods.ts. */
function notifications(): Map<string, z.ZodType> {
  const found = new Map<string, z.ZodType>();
  // Sorted: a module namespace's key order differs between bundlers.
  for (const [exported, value] of Object.entries(agentSchemas).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const m = /^(.+)Notification$/.exec(exported);
    if (m && value instanceof z.ZodType)
      found.set(m[1]!.charAt(0).toLowerCase() + m[1]!.slice(1), value);
  }
  return found;
}

function errorTable(): string {
  return [
    '| code | name | meaning |',
    '| --- | --- | --- |',
    ...Object.entries(ErrorCode).map(
      ([name, code]) =>
        `| ${code} | ${name} | ${cell(ERROR_MEANINGS[name as keyof typeof ErrorCode])} |`,
    ),
  ].join('\n');
}

function adminTables(): string {
  const summary = [
    '| method | changes state | params |',
    '| --- | --- | --- |',
    ...Object.entries(adminMethods).map(([name, spec]) => {
      const fields = Object.keys(toSchema(spec.params, 'input').properties ?? {});
      return `| \`${name}\` | ${spec.mutates ? 'yes' : 'no'} | ${fields.map((f) => `\`${f}\``).join(', ') || '—'} |`;
    }),
  ].join('\n');
  const details = Object.entries(adminMethods).map(
    ([name, spec]) => `### ${name}\n\n${methodTables(spec.params, spec.result)}`,
  );
  return [summary, ...details].join('\n\n');
}

/** Every generated section by marker name. */
export function protocolSections(documented: ReadonlySet<string>): Map<string, string> {
  const sections = new Map<string, string>();
  const undocumented: string[] = [];
  for (const [name, spec] of Object.entries(agentMethods)) {
    sections.set(`agent.${name}`, methodTables(spec.params, spec.result));
    if (!documented.has(`agent.${name}`))
      undocumented.push(`### ${name}\n\n${methodTables(spec.params, spec.result)}`);
  }
  // Methods added to the map but not yet described by hand still get their tables here.
  sections.set('agent.more', undocumented.join('\n\n') || '(none: every agent method is above)');
  for (const [name, schema] of notifications())
    sections.set(`notification.${name}`, fieldTable(schema, 'output'));
  sections.set(
    'notifications',
    [...notifications().keys()].map((n) => `- \`${n}\``).join('\n') || '(none)',
  );
  sections.set('verdict', fieldTable(Verdict, 'output'));
  sections.set('errors', errorTable());
  sections.set('admin', adminTables());
  return sections;
}

const MARKER = /<!-- generated:([\w.-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g;

/**
 * Rewrites every generated section of `doc`. Throws when the document names a section the
 * schemas no longer have (a removed method), so a stale table cannot survive.
 */
export function renderProtocolDoc(doc: string): string {
  const names = new Set([...doc.matchAll(MARKER)].map((m) => m[1]!));
  const sections = protocolSections(names);
  const stale = [...names].filter((n) => !sections.has(n));
  if (stale.length)
    throw new Error(
      `docs/protocol.md has sections for what the schemas no longer define: ${stale.join(', ')}`,
    );
  const missing = ['agent.more', 'errors', 'verdict', 'admin', 'notifications'].filter(
    (n) => !names.has(n),
  );
  if (missing.length)
    throw new Error(`docs/protocol.md lacks the generated sections ${missing.join(', ')}`);
  return doc.replace(
    MARKER,
    (_all, name: string) =>
      `<!-- generated:${name} -->\n${sections.get(name)}\n<!-- /generated:${name} -->`,
  );
}
