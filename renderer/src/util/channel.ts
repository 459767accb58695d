/**
 * Where this UI runs, recorded with each decision: the desktop app's window (its preload put
 * `window.gatehouse` in place before any module ran) or the headless dashboard (main.tsx
 * builds the API over HTTP later). Read once, when this module is first imported.
 */
export const UI_CHANNEL: 'desktop' | 'dashboard' =
  typeof window !== 'undefined' && window.gatehouse ? 'desktop' : 'dashboard';
