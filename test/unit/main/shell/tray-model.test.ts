import { describe, expect, it } from 'vitest';
import {
  MAX_LISTED_REQUESTS,
  requestItemId,
  trayModel,
  type TrayMenuItem,
  type TrayState,
} from '../../../../main/shell/tray-model';
import { pendingRequest } from './fakes';

const base: TrayState = {
  pending: [],
  paused: false,
  openBreakers: [],
  conservative: [],
  quietHours: false,
  startAtLogin: false,
};
const ids = (items: TrayMenuItem[]) => items.map((i) => i.id);
const item = (items: TrayMenuItem[], id: string) => {
  const found = items.find((i) => i.id === id);
  if (!found) throw new Error(`no menu item ${id} in ${ids(items).join(', ')}`);
  return found;
};

describe('trayModel', () => {
  it('is idle with no pending gates, no title and the fixed items in order', () => {
    const model = trayModel(base);
    expect(model.image).toBe('idle');
    expect(model.title).toBe('');
    expect(model.tooltip).toBe('Gatehouse: no pending gates');
    expect(ids(model.items)).toEqual([
      'pending-none',
      'separator-requests',
      'open',
      'quiet-hours',
      'pause-all',
      'start-at-login',
      'separator-quit',
      'quit',
    ]);
    expect(item(model.items, 'pending-none')).toMatchObject({ enabled: false });
  });

  it('writes a hidden or bidirectional character in a request label as its code point', () => {
    const model = trayModel({
      ...base,
      pending: [
        pendingRequest({
          requestId: 'a',
          agent: 'alpha\u200b',
          description: 'Run git status\u202e ecrof-- hsup tig',
        }),
      ],
    });
    const label = (item(model.items, requestItemId('a')) as { label: string }).label;
    expect(label).toBe('alpha⟨U+200B⟩: Run git status⟨U+202E⟩ ecrof-- hsup tig');
  });

  it('shows pending gates with their count and one item per request that opens it', () => {
    const model = trayModel({
      ...base,
      pending: [
        pendingRequest({ requestId: 'a', agent: 'alpha', description: 'Send email to Bob' }),
        pendingRequest({ requestId: 'b', agent: 'beta', urgency: 'high', status: 'timed_out' }),
        pendingRequest({
          requestId: 'c',
          agent: 'gamma',
          description: 'Read admin.token',
          risk: 'critical',
        }),
      ],
    });
    expect(model.image).toBe('pending');
    expect(model.title).toBe('3');
    expect(model.tooltip).toBe('Gatehouse: 3 pending gates (1 timed out)');
    expect(ids(model.items).slice(0, 2)).toEqual([requestItemId('a'), requestItemId('b')]);
    expect(item(model.items, 'request:a')).toMatchObject({
      label: 'alpha: Send email to Bob',
      command: { type: 'open-request', requestId: 'a' },
    });
    expect(item(model.items, 'request:b')).toMatchObject({
      label: 'beta: Push branch feature/x to origin (urgent, timed out)',
    });
    // A request that touches Gatehouse's own files says so in the menu too.
    expect(item(model.items, 'request:c')).toMatchObject({
      label: 'gamma: Read admin.token (CRITICAL)',
    });
  });

  it('says when a request’s agent is killed, paused or gone', () => {
    const model = trayModel({
      ...base,
      pending: [
        pendingRequest({ requestId: 'k', agent: 'k', agentState: 'killed' }),
        pendingRequest({ requestId: 'p', agent: 'p', agentState: 'paused', urgency: 'high' }),
        pendingRequest({
          requestId: 'g',
          agent: 'g',
          agentState: 'running',
          agentConnected: false,
        }),
        pendingRequest({ requestId: 'c', agent: 'c', agentState: 'running', agentConnected: true }),
      ],
    });
    expect(item(model.items, 'request:k')).toMatchObject({
      label: 'k: Push branch feature/x to origin (killed)',
    });
    expect(item(model.items, 'request:p')).toMatchObject({
      label: 'p: Push branch feature/x to origin (urgent, paused)',
    });
    expect(item(model.items, 'request:g')).toMatchObject({
      label: 'g: Push branch feature/x to origin (gone)',
    });
    expect(item(model.items, 'request:c')).toMatchObject({
      label: 'c: Push branch feature/x to origin',
    });
    // The hover text counts them, from the listed head when no whole-queue count is known.
    expect(model.tooltip).toBe(
      'Gatehouse: 4 pending gates · 1 from a gone agent, 1 from a paused agent, 1 from a killed agent',
    );
  });

  it('counts requests of paused, killed and gone agents over the whole queue', () => {
    const pending = Array.from({ length: MAX_LISTED_REQUESTS }, (_, i) =>
      pendingRequest({ requestId: `r${i}`, agentConnected: true }),
    );
    const away = { paused: 2, killed: 0, gone: 31 };
    const model = trayModel({ ...base, pending, waiting: 50, agentsAway: away });
    expect(model.tooltip).toBe(
      'Gatehouse: 50 pending gates · 31 from gone agents, 2 from paused agents',
    );
    // None away: the tooltip says nothing of it, even if the listed head is out of date.
    const none = { paused: 0, killed: 0, gone: 0 };
    const stale = [pendingRequest({ requestId: 'g', agentConnected: false })];
    expect(trayModel({ ...base, pending: stale, waiting: 1, agentsAway: none }).tooltip).toBe(
      'Gatehouse: 1 pending gate',
    );
  });

  it('uses the singular for one gate', () => {
    expect(trayModel({ ...base, pending: [pendingRequest()] }).tooltip).toBe(
      'Gatehouse: 1 pending gate',
    );
  });

  it('folds requests beyond the limit into one "more" item that opens the window', () => {
    const pending = Array.from({ length: MAX_LISTED_REQUESTS + 3 }, (_, i) =>
      pendingRequest({ requestId: `r${i}` }),
    );
    const model = trayModel({ ...base, pending });
    const requestIds = ids(model.items).filter((id) => id.startsWith('request:'));
    expect(requestIds).toHaveLength(MAX_LISTED_REQUESTS);
    expect(item(model.items, 'pending-more')).toMatchObject({
      label: '3 more…',
      command: { type: 'open' },
    });
    expect(model.title).toBe(String(MAX_LISTED_REQUESTS + 3));
  });

  it('counts the whole queue from waiting and timedOut when only its head is listed', () => {
    const pending = Array.from({ length: MAX_LISTED_REQUESTS }, (_, i) =>
      pendingRequest({ requestId: `r${i}` }),
    );
    const model = trayModel({ ...base, pending, waiting: 40_000, timedOut: 12 });
    expect(model.title).toBe('40000');
    expect(model.tooltip).toBe('Gatehouse: 40000 pending gates (12 timed out)');
    expect(item(model.items, 'pending-more')).toMatchObject({
      label: `${40_000 - MAX_LISTED_REQUESTS} more…`,
    });
    expect(trayModel({ ...base, pending: [], waiting: 0, timedOut: 0 }).image).toBe('idle');
  });

  it('shortens long descriptions and escapes ampersands for menus', () => {
    const model = trayModel({
      ...base,
      pending: [
        pendingRequest({ requestId: 'x', agent: 'a', description: `R&D ${'x'.repeat(100)}` }),
      ],
    });
    const label = (item(model.items, 'request:x') as { label: string }).label;
    expect(label.startsWith('a: R&&D xxx')).toBe(true);
    expect(label.endsWith('…')).toBe(true);
    expect(label.replace('&&', '&').length).toBe(60);
  });

  it('shows an open breaker above everything else', () => {
    const model = trayModel({
      ...base,
      paused: true,
      pending: [pendingRequest()],
      openBreakers: ['cost_day', 'error_rate'],
    });
    expect(model.image).toBe('breaker');
    expect(model.tooltip).toBe(
      'Gatehouse: 1 pending gate · breaker open: cost_day, error_rate · agents paused',
    );
  });

  it('shows paused when nothing is pending, and offers resume instead of pause', () => {
    const model = trayModel({ ...base, paused: true });
    expect(model.image).toBe('paused');
    expect(ids(model.items)).toContain('resume-all');
    expect(ids(model.items)).not.toContain('pause-all');
    expect(item(model.items, 'resume-all')).toMatchObject({ command: { type: 'resume-all' } });
  });

  it('keeps pending above paused', () => {
    expect(trayModel({ ...base, paused: true, pending: [pendingRequest()] }).image).toBe('pending');
  });

  it('reflects and toggles quiet hours and start at login', () => {
    const off = trayModel(base);
    expect(item(off.items, 'quiet-hours')).toMatchObject({
      kind: 'checkbox',
      checked: false,
      command: { type: 'set-quiet-hours', enabled: true },
    });
    expect(item(off.items, 'start-at-login')).toMatchObject({
      checked: false,
      command: { type: 'set-start-at-login', enabled: true },
    });
    const on = trayModel({ ...base, quietHours: true, startAtLogin: true });
    expect(on.tooltip).toBe('Gatehouse: no pending gates · quiet hours');
    expect(item(on.items, 'quiet-hours')).toMatchObject({
      checked: true,
      command: { type: 'set-quiet-hours', enabled: false },
    });
    expect(item(on.items, 'start-at-login')).toMatchObject({
      checked: true,
      command: { type: 'set-start-at-login', enabled: false },
    });
  });

  it('offers "try again" for each session in conservative mode, with the agent and why', () => {
    const model = trayModel({
      ...base,
      conservative: [{ sessionId: 'ses-1', agent: 'cautious', reason: 'rate_limit' }],
    });
    const retry = item(model.items, 'conservative:ses-1');
    expect(retry).toMatchObject({
      label: 'cautious: conservative mode (rate_limit) — try again',
      command: { type: 'recover-session', sessionId: 'ses-1' },
    });
    expect(model.tooltip).toContain('1 in conservative mode');
    expect(ids(model.items).indexOf('conservative:ses-1')).toBeLessThan(
      ids(model.items).indexOf('separator-requests'),
    );
  });

  it('shows the joined hub: linked with how many gates the team sees too, or why not linked', () => {
    const hub = {
      url: 'https://hub.example:7230',
      machineName: 'laptop',
      connected: true,
      shownOnHub: 2,
    };
    const linked = trayModel({ ...base, pending: [pendingRequest()], hub });
    expect(linked.tooltip).toBe('Gatehouse: 1 pending gate · hub linked');
    expect(item(linked.items, 'hub-link')).toMatchObject({
      label: 'Team hub: linked to hub.example:7230 as laptop',
      enabled: false,
    });
    expect(item(linked.items, 'hub-shown')).toMatchObject({
      label: '2 pending gates also on the hub',
      enabled: false,
    });
    const down = trayModel({
      ...base,
      hub: { ...hub, connected: false, error: 'machine revoked', shownOnHub: 0 },
    });
    expect(down.tooltip).toBe('Gatehouse: no pending gates · hub not linked');
    expect(item(down.items, 'hub-link')).toMatchObject({
      label: 'Team hub: not linked to hub.example:7230 (machine revoked)',
    });
    expect(ids(down.items)).not.toContain('hub-shown');
    // Not joined: nothing of a hub at all.
    expect(ids(trayModel(base).items).filter((id) => id.includes('hub'))).toEqual([]);
  });
});
