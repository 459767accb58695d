/**
 * What the settings schema says about each setting beyond its type, for the forms that edit it
 * (the dashboard's settings view is generated from it): `title` is the label, `description`
 * the help text (both standard zod metadata, set with `.meta()`), and the keys below.
 */
declare module 'zod/v4/core' {
  interface GlobalMeta {
    /** The unit a number is stored in; a form shows milliseconds as seconds. */
    unit?: 'ms' | 'usd' | 'pct' | 'days' | 'fraction' | 'tokens' | 'usd_per_mtok';
    /** How a string is edited when plain text would not do. */
    format?: 'time' | 'secret' | 'url';
  }
}

export {};
