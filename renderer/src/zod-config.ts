import { config } from 'zod';

// Zod compiles fast parsers with `new Function` unless told not to; the dashboard's CSP
// forbids eval, so this module is imported first, before any schema is built.
config({ jitless: true });
