import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../shared/domain';
import { SseParser } from '../../renderer/src/transport/sse-parser';
import { queueReducer, type QueueState } from '../../renderer/src/state/queue-reducer';
import { formatRoute, parseRoute } from '../../renderer/src/state/route-parse';
import {
  fieldId,
  fieldLabel,
  fromInput,
  groupsOf,
  kindOf,
  toInput,
} from '../../renderer/src/views/settings-fields';
import { spendOverview } from '../../renderer/src/state/guards-source';
import { formatAge, humanize, similarityKey } from '../../renderer/src/util/format';

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
  const empty: QueueState = { loaded: false, requests: [] };

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
      requests: [request('r1'), request('r2'), request('r4', { status: 'approved' })],
      replay: [
        { type: 'request.decided', request: request('r1', { status: 'denied' }) },
        { type: 'request.created', request: request('r3') },
      ],
    });
    expect(s.loaded).toBe(true);
    expect(s.requests.map((r) => r.requestId)).toEqual(['r2', 'r3']);
  });

  it('applies a decision result before its event, and the event after it changes nothing', () => {
    let s = queueReducer(empty, {
      type: 'loaded',
      requests: [request('r1'), request('r2')],
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

describe('settings fields', () => {
  it('chooses an editor from the key and value', () => {
    expect(kindOf('notifications.quietHours.enabled', true)).toBe('boolean');
    expect(kindOf('notifications.quietHours.start', '22:00')).toBe('time');
    expect(kindOf('notifications.channels.email.minUrgency', 'high')).toBe('urgency');
    expect(kindOf('requests.defaultTimeoutMs', 600000)).toBe('duration');
    expect(kindOf('guards.time.phaseTimeoutsMs.planning', 1800000)).toBe('duration');
    expect(kindOf('budgets.perDayUsd', 50)).toBe('number');
    expect(kindOf('notifications.channels.webhook.secret', '')).toBe('secret');
    expect(kindOf('budgets.agents', {})).toBe('json');
    expect(kindOf('guards.safety.blockedOperations', [])).toBe('json');
  });

  it('groups leaves by their parent object and keeps every key reachable', () => {
    const groups = groupsOf(
      {
        quietHours: { enabled: false, start: '22:00' },
        batchIntervalMs: 0,
        channels: { desktop: { enabled: true } },
      },
      'notifications',
    );
    expect(groups.map((g) => [g.key, g.fields.map((f) => f.key)])).toEqual([
      ['notifications', ['notifications.batchIntervalMs']],
      [
        'notifications.quietHours',
        ['notifications.quietHours.enabled', 'notifications.quietHours.start'],
      ],
      ['notifications.channels.desktop', ['notifications.channels.desktop.enabled']],
    ]);
    expect(fieldId('notifications.quietHours.start')).toBe(
      'setting-notifications-quietHours-start',
    );
  });

  it('converts durations to seconds and back, and refuses what is not a number', () => {
    expect(toInput('duration', 600000)).toBe('600');
    expect(fromInput('duration', '1.5')).toBe(1500);
    expect(fromInput('number', '42')).toBe(42);
    expect(() => fromInput('number', '')).toThrow('expected a number');
    expect(() => fromInput('json', '{')).toThrow('expected JSON');
    expect(fromInput('json', '{"a":1}')).toEqual({ a: 1 });
    expect(fromInput('boolean', true)).toBe(true);
    expect(fieldLabel({ key: 'budgets.perDayUsd', kind: 'number', value: 1 }, humanize)).toBe(
      'Per day ($)',
    );
    expect(
      fieldLabel({ key: 'requests.defaultTimeoutMs', kind: 'duration', value: 1 }, humanize),
    ).toBe('Default timeout (seconds)');
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
