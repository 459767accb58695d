import { z } from 'zod';
import { Settings, settingKeyParts } from '../../shared/settings/index';

/** The schema of one setting without its default and optionality; undefined for no such key. */
export function settingSchema(key: string): z.ZodType | undefined {
  const parts = settingKeyParts(key);
  if (!parts) return undefined;
  let node: z.ZodType = Settings;
  for (const part of parts) {
    node = bare(node);
    if (!(node instanceof z.ZodObject) || !Object.hasOwn(node.shape, part)) return undefined;
    node = node.shape[part] as z.ZodType;
  }
  return bare(node);
}

function bare(schema: z.ZodType): z.ZodType {
  let node = schema;
  while (
    node instanceof z.ZodDefault ||
    node instanceof z.ZodPrefault ||
    node instanceof z.ZodOptional ||
    node instanceof z.ZodNullable
  )
    node = node.unwrap() as z.ZodType;
  return node;
}

/**
 * The value `gatehouse config set KEY TEXT` means, read by the setting's type: a text setting
 * takes the text as given (`config set notifications.sms.from 9` stores "9", not the number
 * 9 that then fails validation), a number or true/false setting parses it, and a list or
 * object setting reads it as JSON. A key the schema does not know keeps the old reading
 * (JSON when it parses, else text), and the daemon says what is wrong with it.
 */
export function settingValueFromText(key: string, text: string): unknown {
  const schema = settingSchema(key);
  if (schema instanceof z.ZodString) return text;
  if (schema instanceof z.ZodEnum && schema.options.every((o) => typeof o === 'string'))
    return text;
  if (schema instanceof z.ZodNumber) {
    const n = Number(text.trim());
    // Not a number: passed on as text, so the daemon's message names the expected type.
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  if (schema instanceof z.ZodBoolean) {
    const t = text.trim().toLowerCase();
    return t === 'true' ? true : t === 'false' ? false : text;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
