/**
 * The desktop composition root when another Gatehouse (say, a headless daemon) already serves
 * the agent socket: it says so in an error box and exits 1, with nothing left open. Electron
 * is the recording fake of fake-electron.ts; the core is real.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fake } from './fake-electron';

vi.mock('electron', async () => {
  const { fake } = await import('./fake-electron');
  return { ...fake.electron, default: fake.electron };
});
vi.mock('electron-store', async () => ({
  default: (await import('./fake-electron')).ElectronStoreOverConf,
}));

describe('desktop start with the agent socket taken', () => {
  it('shows why and exits 1', async () => {
    const home = mkdtempSync(join(tmpdir(), 'gh-shell-taken-'));
    const socketPath = join(home, 'agent.sock');
    const savedEnv = { ...process.env };
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(socketPath, resolve));
    try {
      process.env.GATEHOUSE_HOME = home;
      process.env.GATEHOUSE_SOCKET = socketPath;
      process.env.XDG_CONFIG_HOME = home;
      await import('../../../../main/shell/electron-main');
      await vi.waitFor(() => expect(fake.state.exited).toBe(1), { timeout: 10_000, interval: 10 });
      expect(fake.state.errorBoxes).toHaveLength(1);
      expect(fake.state.errorBoxes[0]).toMatch(/already running on .*agent\.sock\. Stop it first/);
      expect(fake.state.trays).toEqual([]);
      expect(fake.state.handlers.size).toBe(0);
    } finally {
      process.env = savedEnv;
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      rmSync(home, { recursive: true, force: true });
    }
  });
});
