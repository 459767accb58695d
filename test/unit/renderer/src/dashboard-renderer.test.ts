import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../../shared/domain';
import { SseParser } from '../../../../renderer/src/transport/sse-parser';
import { queueReducer, type QueueState } from '../../../../renderer/src/state/queue-reducer';
import { formatRoute, parseRoute } from '../../../../renderer/src/state/route-parse';
import {
  checkValue,
  fieldId,
  settingsForm,
  toInput,
} from '../../../../renderer/src/views/settings-form';
import { defaultSettings, settingKeys } from '../../../../shared/settings/index';
import { spendOverview } from '../../../../renderer/src/state/guards-source';
import { formatAge, humanize, similarityKey } from '../../../../renderer/src/util/format';

const request = (id: string, over: Partial<RequestRecord> = {}): RequestRecord => ({
  requestId: id,
  sessionId: 'ses_1',
  agent: 'a',
  action: 'deploy',
  description: `request ${id}`,
  urgency: 'normal',
  status: 'pending',
  tier: 'ask',
  rule: 'default:deploy',
  ruleReason: 'affects users',
  createdAt: `2026-01-01T00:00:0${id.slice(-1)}.000Z`,
  ...over,
});

describe('SseParser', () => {
  it('joins frames split across chunks at any byte, with CRLF or LF', () => {
    const text =
      ': comment\r\nevent: ready\r\ndata: {"ok":true}\r\n\r\n' +
      'data: {"type":"a"}\n\nevent: message\ndata: line1\ndata: line2\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = new SseParser();
      const frames = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(frames, `cut at ${cut}`).toEqual([
        { event: 'ready', data: '{"ok":true}' },
        { event: 'message', data: '{"type":"a"}' },
        { event: 'message', data: 'line1\nline2' },
      ]);
    }
  });

  it('ignores comments and empty frames', () => {
    const parser = new SseParser();
    expect(parser.push(': ping\n\n: ping\n\n')).toEqual([]);
  });
});

describe('queueReducer', () => {
  const empty: QueueState = { loaded: false, requests: [], unloaded: 0 };

  it('keeps the loaded agent facts when an event copy of the request carries none', () => {
    const loaded = queueReducer(empty, {
      type: 'loaded',
      page: {
        requests: [
          request('r1', { agentConnected: false, agentState: 'running' }),
          request('r2', { agentConnected: true }),
        ],
      },
      replay: [],
    });
    // Connected before gone at the same urgency.
    expect(loaded.requests.map((r) => r.requestId)).toEqual(['r2', 'r1']);
    const timedOut = queueReducer(loaded, {
      type: 'event',
      event: { type: 'request.timed_out', request: request('r1', { status: 'timed_out' }) },
    });
    const r1 = timedOut.requests.find((r) => r.requestId === 'r1');
    expect(r1).toMatchObject({ status: 'timed_out', agentConnected: false, agentState: 'running' });
    expect(timedOut.requests.map((r) => r.requestId)).toEqual(['r2', 'r1']);
  });

  /** A queue holding one request of each of two sessions whose agents are connected. */
  const twoSessionsLoaded = () =>
    queueReducer(empty, {
      type: 'loaded',
      page: {
        requests: [
          request('r1', { sessionId: 'ses_a', agentConnected: true }),
          request('r2', { sessionId: 'ses_b', agentConnected: true }),
        ],
      },
      replay: [],
    });

  it('marks the requests of a session that ended with no connection as from a gone agent', () => {
    const loaded = twoSessionsLoaded();
    const ended = (sessionId: string, connections: number) =>
      queueReducer(loaded, {
        type: 'event',
        event: {
          type: 'session.ended',
          session: {
            sessionId,
            agent: 'a',
            status: 'abandoned',
            startedAt: '2026-01-01T00:00:00.000Z',
            endedAt: '2026-01-01T00:05:00.000Z',
            costUsd: 0,
            connections,
          },
          summary: {
            sessionId,
            startedAt: '2026-01-01T00:00:00.000Z',
            endedAt: '2026-01-01T00:05:00.000Z',
            done: [],
            needsReview: [],
            costUsd: 0,
            text: '',
          },
        },
      });
    const gone = ended('ses_a', 0);
    expect(gone.requests.map((r) => [r.requestId, r.agentConnected])).toEqual([
      ['r2', true],
      ['r1', false],
    ]);
    // Still connected (a session ended by `end` on an open connection): nothing changes.
    expect(ended('ses_a', 1)).toBe(loaded);
  });

  it('follows an asking agent leaving and coming back (session.connection)', () => {
    const loaded = twoSessionsLoaded();
    const connection = (state: typeof loaded, connected: boolean) =>
      queueReducer(state, {
        type: 'event',
        event: { type: 'session.connection', sessionId: 'ses_a', agent: 'a', connected },
      });
    const gone = connection(loaded, false);
    expect(gone.requests.map((r) => [r.requestId, r.agentConnected])).toEqual(
      expect.arrayContaining([
        ['r1', false],
        ['r2', true],
      ]),
    );
    const back = connection(gone, true);
    expect(back.requests.find((r) => r.requestId === 'r1')?.agentConnected).toBe(true);
    // Nothing changes when the records already say so.
    expect(connection(loaded, true)).toBe(loaded);
  });

  it('adds filed requests, keeps timed-out ones, drops decided and cancelled ones', () => {
    let s = queueReducer(empty, {
      type: 'event',
      event: { type: 'request.created', request: request('r2') },
    });
    s = queueReducer(s, {
      type: 'event',
      event: { type: 'request.created', request: request('r1') },
    });
    expect(s.requests.map((r) => r.requestId)).toEqual(['r1', 'r2']); // oldest first
    s = queueReducer(s, {
      type: 'event',
      event: { type: 'request.timed_out', request: request('r1', { status: 'timed_out' }) },
    });
    expect(s.requests.map((r) => r.status)).toEqual(['timed_out', 'pending']);
    s = queueReducer(s, {
      type: 'event',
      event: { type: 'request.decided', request: request('r1', { status: 'approved' }) },
    });
    s = queueReducer(s, {
      type: 'event',
      event: { type: 'request.cancelled', request: request('r2', { status: 'cancelled' }) },
    });
    expect(s.requests).toEqual([]);
  });

  it('replays events that arrived while the list was loading', () => {
    // The list was read before r1 was decided and r3 filed; both events came in meanwhile.
    const s = queueReducer(empty, {
      type: 'loaded',
      page: { requests: [request('r1'), request('r2'), request('r4', { status: 'approved' })] },
      replay: [
        { type: 'request.decided', request: request('r1', { status: 'denied' }) },
        { type: 'request.created', request: request('r3') },
      ],
    });
    expect(s.loaded).toBe(true);
    expect(s.requests.map((r) => r.requestId)).toEqual(['r2', 'r3']);
  });

  it('loads the queue a page at a time and counts what is not loaded yet', () => {
    let s = queueReducer(empty, {
      type: 'loaded',
      page: { requests: [request('r1'), request('r2')], total: 5, nextCursor: 'c1' },
      replay: [],
    });
    expect([s.unloaded, s.nextCursor]).toEqual([3, 'c1']);
    // r4, not loaded yet, is decided elsewhere: one fewer to load.
    s = queueReducer(s, {
      type: 'event',
      event: { type: 'request.decided', request: request('r4', { status: 'approved' }) },
    });
    expect(s.unloaded).toBe(2);
    s = queueReducer(s, {
      type: 'more',
      page: { requests: [request('r2'), request('r3'), request('r5')] },
    });
    expect(s.requests.map((r) => r.requestId)).toEqual(['r1', 'r2', 'r3', 'r5']);
    expect([s.unloaded, s.nextCursor]).toEqual([0, undefined]);
  });

  it('applies a decision result before its event, and the event after it changes nothing', () => {
    let s = queueReducer(empty, {
      type: 'loaded',
      page: { requests: [request('r1'), request('r2')] },
      replay: [],
    });
    s = queueReducer(s, { type: 'decided', requests: [request('r1', { status: 'approved' })] });
    expect(s.requests.map((r) => r.requestId)).toEqual(['r2']);
    const again = queueReducer(s, {
      type: 'event',
      event: { type: 'request.decided', request: request('r1', { status: 'approved' }) },
    });
    expect(again.requests.map((r) => r.requestId)).toEqual(['r2']);
    expect(queueReducer(s, { type: 'event', event: { type: 'guard.reset', breaker: 'x' } })).toBe(
      s,
    );
  });
});

describe('routes in the URL fragment', () => {
  it('opens a request from #request=<id> and round-trips views', () => {
    expect(parseRoute('#request=req-1')).toEqual({ view: 'pending', requestId: 'req-1' });
    expect(parseRoute('#view=history')).toEqual({ view: 'history' });
    expect(parseRoute('#session=s1')).toEqual({ view: 'sessions', sessionId: 's1' });
    expect(parseRoute('#view=nonsense')).toEqual({ view: 'pending' });
    expect(parseRoute('')).toEqual({ view: 'pending' });
    for (const route of [
      { view: 'settings' as const },
      { view: 'pending' as const, requestId: 'a b&c' },
      { view: 'sessions' as const, sessionId: 's1' },
    ]) {
      expect(parseRoute(formatRoute(route))).toEqual(route);
    }
  });
});

describe('settings form (generated from the zod settings schema)', () => {
  const sections = settingsForm();
  const fields = sections.flatMap((s) => s.groups.flatMap((g) => g.fields));
  const field = (key: string) => {
    const found = fields.find((f) => f.key === key);
    if (!found) throw new Error(`no field ${key}`);
    return found;
  };

  it('has a section per top-level setting, titled and explained by the schema', () => {
    expect(sections.map((s) => s.name)).toEqual(Object.keys(defaultSettings()));
    for (const s of sections) {
      expect(s.title).not.toBe('');
      expect(s.help).toBeTruthy();
    }
    expect(sections.find((s) => s.name === 'guards')!.title).toBe('Breakers and guards');
  });

  it('chooses each widget from the schema type, a table for records of objects, no JSON box', () => {
    expect(field('notifications.quietHours.enabled').widget).toEqual({ kind: 'boolean' });
    expect(field('notifications.quietHours.start').widget).toEqual({
      kind: 'text',
      format: 'time',
    });
    expect(field('notifications.channels.email.minUrgency').widget).toEqual({
      kind: 'select',
      options: ['low', 'normal', 'high'],
    });
    expect(field('requests.defaultTimeoutMs').widget).toMatchObject({
      kind: 'number',
      scale: 1000,
    });
    expect(field('budgets.perDayUsd').widget).toMatchObject({ kind: 'number', unit: 'usd' });
    expect(field('notifications.channels.webhook.secret').widget).toEqual({
      kind: 'text',
      format: 'secret',
    });
    expect(field('guards.time.phaseTimeoutsMs').widget).toMatchObject({
      kind: 'map',
      value: { scale: 1000 },
    });
    expect(field('guards.safety.blockedOperations').widget).toEqual({ kind: 'list' });
    expect(fields.filter((f) => f.widget.kind === 'json').map((f) => f.key)).toEqual([]);
    expect(field('budgets.agents').widget).toMatchObject({
      kind: 'table',
      columns: [
        { name: 'perSessionUsd', label: 'Per session ($)' },
        { name: 'perDayUsd', label: 'Per day ($)' },
        { name: 'perOperationUsd', label: 'Per operation ($)' },
      ],
    });
    expect(field('guards.prices.overrides').widget.kind).toBe('table');
  });

  it('labels with the schema title and unit, and keeps every setting reachable', () => {
    expect(field('budgets.perDayUsd').label).toBe('Per day ($)');
    expect(field('requests.defaultTimeoutMs').label).toBe('Default timeout (seconds)');
    expect(field('requests.defaultTimeoutMs').help).toMatch(/timed_out/);
    expect(field('budgets.perAgent.perDayUsd').optional).toBe(true);
    const keys = fields.map((f) => f.key);
    for (const key of settingKeys())
      expect(keys.some((k) => key === k || key.startsWith(`${k}.`))).toBe(true);
    expect(fieldId('notifications.quietHours.start')).toBe(
      'setting-notifications-quietHours-start',
    );
  });

  it('converts durations to seconds and back, maps and lists, and checks against the schema', () => {
    const timeout = field('requests.defaultTimeoutMs');
    expect(toInput(timeout.widget, 600000)).toBe('600');
    expect(checkValue(timeout, '1.5')).toBe(1500);
    expect(() => checkValue(timeout, '')).toThrow('expected a number');
    expect(() => checkValue(timeout, '-5')).toThrow();
    const phases = field('guards.time.phaseTimeoutsMs');
    expect(toInput(phases.widget, { review: 60000 })).toEqual([['review', '60']]);
    expect(
      checkValue(phases, [
        ['review', '90'],
        ['', ''],
      ]),
    ).toEqual({ review: 90000 });
    const blocked = field('guards.safety.blockedOperations');
    expect(checkValue(blocked, ['web_search', ' '])).toEqual(['web_search']);
    expect(checkValue(field('budgets.perAgent.perDayUsd'), '')).toBeUndefined();
    const caps = field('budgets.agents');
    expect(toInput(caps.widget, { builder: { perDayUsd: 5 } })).toEqual([
      ['builder', ['', '5', '']],
    ]);
    expect(
      checkValue(caps, [
        ['builder', ['', '5', '']],
        ['', ['1', '', '']],
      ]),
    ).toEqual({ builder: { perDayUsd: 5 } });
    expect(() => checkValue(caps, [['builder', ['', 'x', '']]])).toThrow('expected a number');
    const prices = field('guards.prices.overrides');
    expect(() => checkValue(prices, [['my-model', ['1', '']]])).toThrow();
    expect(checkValue(field('notifications.quietHours.start'), '9:00')).toBe('09:00');
    expect(checkValue(field('notifications.quietHours.enabled'), true)).toBe(true);
  });
});

describe('budgets view data', () => {
  it("lays the daemon's spend over the last local days, zero days included", () => {
    const now = Date.parse('2026-03-10T12:00:00');
    const total = (key: string, costUsd: number) => ({
      key,
      costUsd,
      inputTokens: 0,
      outputTokens: 0,
      calls: 1,
    });
    const overview = spendOverview(
      {
        day: '2026-03-10',
        limits: {
          perDayUsd: 50,
          perSessionUsd: 10,
          perOperationUsd: 1,
          warnAtPct: 80,
          perPhaseUsd: {},
          perAgent: {},
          agents: {},
        },
        spent: { dayUsd: 2, reservedUsd: 0 },
        byModel: [total('small', 0.5), total('large', 3.5)],
        byAgent: [],
        days: [total('2026-03-10', 2), total('2026-03-08', 2), total('2026-01-01', 9)],
      },
      now,
      3,
    );
    expect(overview.byDay).toEqual([
      { day: '2026-03-08', usd: 2 },
      { day: '2026-03-09', usd: 0 },
      { day: '2026-03-10', usd: 2 },
    ]);
    expect(overview.byModel.map((m) => m.model)).toEqual(['large', 'small']);
    expect(overview.todayUsd).toBe(2);
  });
});

describe('formatting', () => {
  it('says how long ago, and what makes requests similar', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(formatAge('2026-01-01T11:59:18Z', now)).toBe('42 s');
    expect(formatAge('2026-01-01T11:55:00Z', now)).toBe('5 min');
    expect(formatAge('2026-01-01T09:00:00Z', now)).toBe('3 h');
    expect(formatAge('2025-12-28T12:00:00Z', now)).toBe('4 d');
    expect(similarityKey(request('r1', { target: 'staging' }))).toBe(
      similarityKey(request('r2', { agent: 'other', target: 'staging' })),
    );
    expect(similarityKey(request('r1', { target: 'staging' }))).not.toBe(
      similarityKey(request('r2', { target: 'production' })),
    );
    expect(humanize('quietHours')).toBe('Quiet hours');
  });
});
