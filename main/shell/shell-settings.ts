import { z } from 'zod';
import type { WindowBounds } from './window-service';

/**
 * Settings only the desktop shell has (the engine's settings live in SQLite and go through
 * the admin service). Kept with electron-store in `$GATEHOUSE_HOME/shell-settings.json`.
 */
export const ShellSettings = z.object({
  windowBounds: z
    .object({
      x: z.number().int().exactOptional(),
      y: z.number().int().exactOptional(),
      width: z.number().int().min(400).max(20_000),
      height: z.number().int().min(300).max(20_000),
    })
    .optional(),
  startAtLogin: z.boolean().default(false),
  /** Start with the tray icon only; the window opens on demand. */
  startHidden: z.boolean().default(true),
});
export type ShellSettings = z.infer<typeof ShellSettings>;

/** The part of electron-store (Conf) used here: the whole object, and writes by key. */
export interface KeyValueStore {
  readonly store: Record<string, unknown>;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/**
 * Reads and writes {@link ShellSettings} through a key-value store, checking both ways: a
 * field that does not parse (hand-edited file, older version) falls back to its default and is
 * reported, instead of breaking start-up; a write that does not parse throws.
 */
export class ShellSettingsStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly onInvalid: (key: string, problem: string) => void = () => {},
  ) {}

  get(): ShellSettings {
    const raw = this.store.store;
    const fields: Record<string, unknown> = {};
    for (const [key, schema] of Object.entries(ShellSettings.shape)) {
      const parsed = schema.safeParse(raw[key]);
      if (parsed.success) {
        fields[key] = parsed.data;
      } else {
        this.onInvalid(key, parsed.error.issues.map((i) => i.message).join('; '));
        fields[key] = schema.parse(undefined);
      }
    }
    return ShellSettings.parse(fields);
  }

  update(patch: Partial<ShellSettings>): ShellSettings {
    const next = ShellSettings.parse({ ...this.get(), ...patch });
    for (const [key, value] of Object.entries(next)) {
      if (value === undefined) this.store.delete(key);
      else this.store.set(key, value);
    }
    return next;
  }

  /** The bounds accessor the WindowService takes. */
  windowBounds(): { load(): WindowBounds | undefined; save(bounds: WindowBounds): void } {
    return {
      load: () => this.get().windowBounds,
      save: (bounds) => {
        // A window dragged to an odd size is not worth failing a close over.
        const parsed = ShellSettings.shape.windowBounds.safeParse(roundBounds(bounds));
        if (parsed.success) this.update({ windowBounds: parsed.data });
      },
    };
  }
}

const roundBounds = (b: WindowBounds): WindowBounds => ({
  ...(b.x === undefined ? {} : { x: Math.round(b.x) }),
  ...(b.y === undefined ? {} : { y: Math.round(b.y) }),
  width: Math.round(b.width),
  height: Math.round(b.height),
});
