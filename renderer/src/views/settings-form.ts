import { z } from 'zod';
import type { GlobalMeta } from 'zod/v4/core';
import { Settings } from '../../../shared/settings/index';

/**
 * The settings form, generated from the zod settings schema (shared/settings/*): a section per
 * top-level object, a group per nested object, a field per setting. Labels and help text are
 * the schema's `title` and `description`; widgets follow the schema's types.
 */

/** How a field is edited. */
export type Widget =
  | { kind: 'boolean' }
  | { kind: 'select'; options: string[] }
  | NumberWidget
  | { kind: 'text'; format?: 'time' | 'secret' | 'url' }
  /** An array of strings: one input per item. */
  | { kind: 'list' }
  /** A record of numbers: one name and one number per entry. */
  | { kind: 'map'; value: NumberWidget }
  /** A record of objects of numbers (caps by agent name): a row per name, a column per number. */
  | { kind: 'table'; columns: TableColumn[] }
  /** Only where no widget fits (a record of objects). */
  | { kind: 'json' };

export interface NumberWidget {
  kind: 'number';
  unit?: GlobalMeta['unit'];
  integer: boolean;
  /** Stored milliseconds are edited as seconds. */
  scale: number;
}

/** One number of the objects a `table` field edits, e.g. an agent's `perDayUsd`. */
export interface TableColumn {
  name: string;
  label: string;
  number: NumberWidget;
}

/** One row of a `table` field as it is edited: the name, and the text of each column. */
export type TableRow = [string, string[]];

export interface FormField {
  /** The dotted settings key (`notifications.quietHours.start`). */
  key: string;
  label: string;
  help?: string;
  widget: Widget;
  /** May be absent: saved by writing its parent object, as the key may not exist yet. */
  optional: boolean;
  /** Validates the value the field produces. */
  schema: z.ZodType;
}

export interface FormGroup {
  key: string;
  /** Titles from the section down, empty for the section's own fields. */
  path: string[];
  help?: string;
  fields: FormField[];
}

export interface FormSection {
  name: string;
  title: string;
  help?: string;
  groups: FormGroup[];
}

/** What an input holds while it is edited. */
export type InputValue = string | boolean | string[] | [string, string][] | TableRow[];

interface Unwrapped {
  inner: z.ZodType;
  meta: GlobalMeta;
  optional: boolean;
}

/** Strips defaults and optionality, collecting metadata from every layer (outer wins). */
function unwrap(schema: z.ZodType): Unwrapped {
  let meta: GlobalMeta = {};
  let optional = false;
  let node: z.ZodType = schema;
  for (;;) {
    meta = { ...(z.globalRegistry.get(node) ?? {}), ...meta };
    if (node instanceof z.ZodOptional) optional = true;
    if (
      node instanceof z.ZodDefault ||
      node instanceof z.ZodPrefault ||
      node instanceof z.ZodOptional
    )
      node = node.unwrap() as z.ZodType;
    else return { inner: node, meta, optional };
  }
}

const humanize = (name: string): string => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function numberWidget(inner: z.ZodNumber, meta: GlobalMeta): NumberWidget {
  return {
    kind: 'number',
    unit: meta.unit,
    integer: inner.isInt && meta.unit !== 'ms',
    scale: meta.unit === 'ms' ? 1000 : 1,
  };
}

function widgetOf(inner: z.ZodType, meta: GlobalMeta): Widget {
  if (inner instanceof z.ZodBoolean) return { kind: 'boolean' };
  if (inner instanceof z.ZodEnum) return { kind: 'select', options: inner.options.map(String) };
  if (inner instanceof z.ZodNumber) return numberWidget(inner, meta);
  if (inner instanceof z.ZodString)
    return meta.format ? { kind: 'text', format: meta.format } : { kind: 'text' };
  if (
    inner instanceof z.ZodArray &&
    unwrap(inner.element as z.ZodType).inner instanceof z.ZodString
  )
    return { kind: 'list' };
  if (inner instanceof z.ZodRecord) {
    const value = unwrap(inner.valueType as z.ZodType);
    if (value.inner instanceof z.ZodNumber)
      return { kind: 'map', value: numberWidget(value.inner, { ...value.meta, ...meta }) };
    const columns = value.inner instanceof z.ZodObject ? tableColumns(value.inner) : undefined;
    if (columns) return { kind: 'table', columns };
  }
  return { kind: 'json' };
}

/** The columns of an object whose every field is a number; undefined for any other object. */
function tableColumns(object: z.ZodObject): TableColumn[] | undefined {
  const columns: TableColumn[] = [];
  for (const [name, child] of Object.entries(object.shape)) {
    const { inner, meta } = unwrap(child as z.ZodType);
    if (!(inner instanceof z.ZodNumber)) return undefined;
    columns.push({ name, label: labelOf(name, meta), number: numberWidget(inner, meta) });
  }
  return columns.length ? columns : undefined;
}

const UNIT_LABELS: Partial<Record<NonNullable<GlobalMeta['unit']>, string>> = {
  ms: 'seconds',
  usd: '$',
  pct: '%',
  days: 'days',
  usd_per_mtok: '$ per million tokens',
};

function labelOf(name: string, meta: GlobalMeta): string {
  const unit = meta.unit && UNIT_LABELS[meta.unit];
  return `${meta.title ?? humanize(name)}${unit ? ` (${unit})` : ''}`;
}

function groupsOf(object: z.ZodObject, key: string, path: string[], help?: string): FormGroup[] {
  const fields: FormField[] = [];
  const nested: FormGroup[] = [];
  for (const [name, child] of Object.entries(object.shape)) {
    const { inner, meta, optional } = unwrap(child as z.ZodType);
    const childKey = `${key}.${name}`;
    if (inner instanceof z.ZodObject)
      nested.push(
        ...groupsOf(inner, childKey, [...path, meta.title ?? humanize(name)], meta.description),
      );
    else
      fields.push({
        key: childKey,
        label: labelOf(name, meta),
        ...(meta.description ? { help: meta.description } : {}),
        widget: widgetOf(inner, meta),
        optional,
        schema: child as z.ZodType,
      });
  }
  const own = fields.length ? [{ key, path, ...(help ? { help } : {}), fields }] : [];
  return [...own, ...nested];
}

/** The form of every setting, section by section in the schema's order. */
export function settingsForm(schema: z.ZodObject = Settings): FormSection[] {
  return Object.entries(schema.shape).flatMap(([name, child]) => {
    const { inner, meta } = unwrap(child as z.ZodType);
    if (!(inner instanceof z.ZodObject)) return [];
    return [
      {
        name,
        title: meta.title ?? humanize(name),
        ...(meta.description ? { help: meta.description } : {}),
        groups: groupsOf(inner, name, []),
      },
    ];
  });
}

/** The DOM id (and test id) of a settings field: `setting-notifications-quietHours-start`. */
export const fieldId = (key: string): string => `setting-${key.replace(/\./g, '-')}`;

const numberText = (w: NumberWidget, value: unknown): string =>
  typeof value === 'number' ? String(value / w.scale) : '';

/** What an input shows for a stored value. */
export function toInput(widget: Widget, value: unknown): InputValue {
  switch (widget.kind) {
    case 'boolean':
      return value === true;
    case 'number':
      return numberText(widget, value);
    case 'list':
      return Array.isArray(value) ? value.map(String) : [];
    case 'map':
      return Object.entries((value ?? {}) as Record<string, unknown>).map(
        ([k, v]) => [k, numberText(widget.value, v)] as [string, string],
      );
    case 'table':
      return Object.entries((value ?? {}) as Record<string, Record<string, unknown>>).map(
        ([name, row]): TableRow => [
          name,
          widget.columns.map((c) => numberText(c.number, row[c.name])),
        ],
      );
    case 'json':
      return JSON.stringify(value ?? null, null, 2);
    default:
      return typeof value === 'string' ? value : '';
  }
}

function parseNumber(w: NumberWidget, text: string, optional: boolean): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '' && optional) return undefined;
  const n = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(n)) throw new Error('expected a number');
  return w.scale === 1 ? n : Math.round(n * w.scale);
}

/** Parses what the person typed into the setting's value, or throws with why not. */
export function fromInput(
  field: Pick<FormField, 'widget' | 'optional'>,
  input: InputValue,
): unknown {
  const { widget } = field;
  switch (widget.kind) {
    case 'boolean':
      return input === true;
    case 'number':
      return parseNumber(widget, String(input), field.optional);
    case 'list':
      return (input as string[]).map((s) => s.trim()).filter((s) => s !== '');
    case 'map': {
      const out: Record<string, number> = {};
      for (const [name, text] of input as [string, string][]) {
        if (name.trim() === '') continue;
        out[name.trim()] = parseNumber(widget.value, text, false)!;
      }
      return out;
    }
    case 'table': {
      const out: Record<string, Record<string, number>> = {};
      for (const [name, texts] of input as TableRow[]) {
        if (name.trim() === '') continue;
        const row: Record<string, number> = {};
        widget.columns.forEach((c, i) => {
          // An empty cell: no separate cap, the global one applies.
          const n = parseNumber(c.number, texts[i] ?? '', true);
          if (n !== undefined) row[c.name] = n;
        });
        out[name.trim()] = row;
      }
      return out;
    }
    case 'json':
      try {
        return JSON.parse(String(input));
      } catch {
        throw new Error('expected JSON');
      }
    default:
      return String(input);
  }
}

/** The value a field produces, checked against its schema; throws with the first problem. */
export function checkValue(field: FormField, input: InputValue): unknown {
  const value = fromInput(field, input);
  const result = field.schema.safeParse(value);
  if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'invalid value');
  return result.data;
}
