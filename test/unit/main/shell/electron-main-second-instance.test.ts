/**
 * The desktop composition root when the single-instance lock is held by another Gatehouse:
 * it quits at once and builds nothing. Electron is the recording fake of fake-electron.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { fake } from './fake-electron';

vi.mock('electron', async () => {
  const { fake } = await import('./fake-electron');
  return { ...fake.electron, default: fake.electron };
});
vi.mock('electron-store', async () => ({
  default: (await import('./fake-electron')).ElectronStoreOverConf,
}));

describe('a second desktop instance', () => {
  it('quits at once and builds nothing', async () => {
    fake.state.lock = false;
    await import('../../../../main/shell/electron-main');
    expect(fake.state.quitting).toBe(true);
    // Let a (wrongly) scheduled onReady run, so that building anything would show.
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.state.trays).toEqual([]);
    expect(fake.state.windows).toEqual([]);
    expect(fake.state.handlers.size).toBe(0);
    expect(fake.state.sessionSecured).toEqual({ csp: false, permissions: false });
  });
});
