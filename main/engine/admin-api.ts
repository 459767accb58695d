import type { RequestRecord, RequestStatus, SessionSummary } from '../../shared/domain';
import type { AdminParsedParams as In, AdminResult as Out } from '../../shared/protocol/method-map';
import type { RuleSuggestion } from '../../shared/protocol/suggestion-methods';
import type { PendingAgentsAway } from '../../shared/protocol/admin-methods';
import { ALL as ALL_AGENTS } from './controls/controls';
import { iso } from '../../shared/clock';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import type { EngineCore } from './engine-core';
import { adminGuards } from './guards/admin-guards';
import { adminTrust } from './policy/admin-trust';
import { draftLadder } from './policy/rule-draft';
import { describeRule, normaliseDraft } from '../../shared/policy/rule-match';
import { commandPrefixProblem } from '../../shared/policy/command-prefix';
import { compact, toRequestRecord } from './kernel/records';
import type { ComputedSuggestion } from './policy/rule-suggestions';
import {
  buildSessionReport,
  MAX_REPORT_NAMED,
  MAX_REPORT_REQUESTS,
  MAX_TIMELINE,
  spendTally,
} from './sessions/session-report';
import { boundedSummary, currentSummary, SUMMARY_MAX_ITEMS } from './sessions/summary';
import type { RequestRow, SessionRow } from './store-port';
import { timelineEntry } from './sessions/transcript';

/** What the engine knows for `status` (the process facts are the transport's to add). */
export interface EngineStatus {
  pending: number;
  timedOut: number;
  activeSessions: number;
  agents: number;
  paused: boolean;
  /** Waiting requests whose agents will not act on an answer now; absent when none. */
  pendingAgentsAway?: PendingAgentsAway;
}

/** How many suggestions `suggestions.list` returns at most (the newest): a card each. */
const MAX_LISTED_SUGGESTIONS = 50;

/** A time given as text (ISO 8601); one that does not parse is refused, not ignored. */
function timeParam(name: string, text: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw new GatehouseError(ErrorCode.InvalidParams, `${name}: "${text}" is not a date`);
  return ms;
}

/** The wire shape of a suggestion: without the engine's pattern and sample request. */
function toWire(s: ComputedSuggestion): RuleSuggestion {
  const { pattern: _pattern, sample: _sample, ...wire } = s;
  return wire;
}

/**
 * The engine's admin side: everything a person does or looks at, whatever the transport
 * (socket admin role, Electron IPC, dashboard HTTP). Each method takes the admin method's
 * validated params and answers with its result; each change runs in the engine's unit of
 * work with its audit entries, cache updates and effects.
 */
export class AdminApi {
  readonly guards;
  readonly ladder;
  readonly trust;

  constructor(private readonly x: EngineCore) {
    ({ guards: this.guards, ladder: this.ladder } = adminGuards(x));
    this.trust = adminTrust(x);
  }

  status(): EngineStatus {
    const store = this.x.deps.store;
    // Counted through indexes, never read: status costs the same with any history.
    const active = store.countActiveSessions();
    const { waiting, timedOut } = store.countWaiting();
    const away = waiting > 0 ? this.pendingAgentsAway(waiting) : undefined;
    return {
      pending: waiting,
      timedOut,
      ...(away ? { pendingAgentsAway: away } : {}),
      activeSessions: active.sessions,
      agents: active.agents,
      paused: this.x.controls.allPaused(),
    };
  }

  /**
   * `waiting` requests by why their agent will not act now (agentPresence), undefined if none.
   * Counted without reading the queue: the requests of paused or killed agents (rare) by agent,
   * those of connected sessions of running agents by session (indexed, as filing counts them);
   * the rest are gone.
   */
  private pendingAgentsAway(waiting: number): PendingAgentsAway | undefined {
    const { deps, controls, sessions } = this.x;
    const away = { paused: 0, killed: 0, gone: 0 };
    const everyone = controls.stateOf(ALL_AGENTS);
    if (everyone !== 'running') away[everyone] = waiting;
    else {
      const held = new Set<string>();
      for (const c of deps.store.listControls()) {
        const state = controls.stateOf(c.agent);
        if (state === 'running') continue;
        held.add(c.agent);
        away[state] += deps.store.countWaitingForAgent(c.agent);
      }
      let connected = 0;
      for (const id of sessions.connectedSessionIds()) {
        const agent = deps.store.getSession(id)?.agent;
        if (agent !== undefined && !held.has(agent)) connected += deps.store.countOpenRequests(id);
      }
      away.gone = waiting - away.paused - away.killed - connected;
    }
    return away.paused + away.killed + away.gone > 0 ? away : undefined;
  }

  /** A request as a person sees it: with its agent's state and whether it is still there. */
  private withAgentFacts(r: RequestRow): RequestRecord {
    return {
      ...toRequestRecord(r),
      agentState: this.x.controls.stateOf(r.agent),
      agentConnected: this.x.sessions.connectionCount(r.sessionId) > 0,
    };
  }

  /** Every agent with a session or a control, its state and its open sessions. */
  agents(): Out<'agents.list'> {
    const { deps, sessions, controls } = this.x;
    const byAgent = new Map<string, { sessions: number; connections: number; lastSeen: number }>();
    for (const s of deps.store.listSessions({ status: 'all', limit: 5000 })) {
      const a = byAgent.get(s.agent) ?? { sessions: 0, connections: 0, lastSeen: 0 };
      if (s.status === 'active') a.sessions++;
      a.connections += sessions.connectionCount(s.sessionId);
      a.lastSeen = Math.max(a.lastSeen, s.lastSeenAt, s.endedAt ?? 0);
      byAgent.set(s.agent, a);
    }
    // An agent paused or killed before it ever connected is listed too: it is held.
    for (const c of deps.store.listControls())
      if (c.agent !== '*' && !byAgent.has(c.agent))
        byAgent.set(c.agent, { sessions: 0, connections: 0, lastSeen: 0 });
    return {
      agents: [...byAgent].map(([agent, a]) => ({
        agent,
        state: controls.stateOf(agent),
        sessions: a.sessions,
        connections: a.connections,
        ...(a.lastSeen ? { lastSeenAt: iso(a.lastSeen) } : {}),
      })),
    };
  }

  decide(p: In<'decide'>): Out<'decide'> {
    const { request, rule, grants } = this.x.queue.decide(p);
    return { request, ...(rule ? { rule } : {}), ...(grants.length ? { grants } : {}) };
  }

  /** Decides each request in turn; one that cannot be decided is reported, not fatal. */
  decideMany(p: In<'decideMany'>): Out<'decideMany'> {
    const { requestIds, ...rest } = p;
    const decided: RequestRecord[] = [];
    const rules: { requestId: string; ruleId: string; description: string }[] = [];
    const failed: { requestId: string; error: string }[] = [];
    for (const requestId of requestIds) {
      try {
        const { request, rule } = this.x.queue.decide({ ...rest, requestId });
        decided.push(request);
        if (rule) rules.push({ requestId, ...rule });
      } catch (error) {
        failed.push({ requestId, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return { decided, failed, ...(rules.length ? { rules } : {}) };
  }

  /** The kill switch: pause, resume or kill one agent (`agent`) or all of them. */
  control(state: 'paused' | 'resumed' | 'killed', p: In<'pause'>): Out<'pause'> {
    this.x.controls.set(p.agent, state, p.reason);
    return { agents: p.agent ? [p.agent] : ['*'], state };
  }

  readonly requests = {
    /** The review queue, a page at a time: exactly the requests waiting for you. */
    pending: (p: In<'pending.list'>): Out<'pending.list'> => {
      const { agentConnected, ...q } = p;
      const ids = this.x.sessions.connectedSessionIds();
      const { items, ...page } = this.x.deps.store.pageOpenRequests(
        compact({
          ...q,
          sessions: agentConnected === undefined ? undefined : { ids, connected: agentConnected },
          connectedSessionIds: ids,
        }),
      );
      return { requests: items.map((r) => this.withAgentFacts(r)), ...page };
    },
    query: (p: In<'requests.query'>): Out<'requests.query'> => {
      const { items, ...page } = this.x.deps.store.queryRequests(p);
      return { requests: items.map((r) => this.withAgentFacts(r)), ...page };
    },
    get: (p: In<'request.get'>): Out<'request.get'> => ({
      request: this.withAgentFacts(this.x.queue.get(p.requestId)),
    }),
    /** How many agent calls are blocked right now on this request's decision. */
    waitingAgents: (requestId: string): number => this.x.queue.waitingCount(requestId),
  };

  readonly sessions = {
    list: (p: In<'sessions.list'>): Out<'sessions.list'> => {
      const { items, ...page } = this.x.deps.store.pageSessions(p);
      return { sessions: items.map((s) => this.x.sessions.record(s)), ...page };
    },
    /**
     * A session with its newest requests and transcript entries and how many there are in
     * all: the same cost for a session of ten requests or of a hundred thousand (issue 14).
     */
    get: (p: In<'session.get'>): Out<'session.get'> => {
      const { store } = this.x.deps;
      const s = this.x.sessions.get(p.sessionId);
      // The timeline's page counts both lists; the requests' page needs no count of its own.
      const timeline = store.pageSessionTimeline(s.sessionId, { limit: p.transcriptLimit });
      const requests = p.requestsLimit
        ? store.listNewestSessionRequests(s.sessionId, p.requestsLimit)
        : [];
      return {
        ...this.sessionDetail(s),
        // Pages come newest first; the detail reads in time order, as it always did.
        transcript: timeline.items.map(timelineEntry).reverse(),
        transcriptTotal: timeline.total,
        requests: requests.map(toRequestRecord).reverse(),
        requestsTotal: timeline.requestsTotal,
      };
    },
    /** A session's transcript a page at a time, newest first. */
    transcript: (p: In<'session.transcript'>): Out<'session.transcript'> => {
      const s = this.x.sessions.get(p.sessionId);
      const { items, total, nextCursor } = this.x.deps.store.pageSessionTimeline(s.sessionId, p);
      return { transcript: items.map(timelineEntry), total, ...(nextCursor ? { nextCursor } : {}) };
    },
    report: (p: In<'session.report'>): Out<'session.report'> => {
      const { deps } = this.x;
      const s = this.x.sessions.get(p.sessionId);
      // Trips and mode changes are what a report needs from the audit; the rest is in the
      // transcript and the requests.
      const audit = ['guard.tripped', 'mode.changed']
        .flatMap((type) => deps.store.queryAudit({ type, sessionId: s.sessionId, limit: 1000 }))
        .sort((a, b) => a.seq - b.seq);
      const { store } = deps;
      const sessionId = s.sessionId;
      // The session's start and its figures, not the session: a report of a session of a
      // hundred thousand requests reads a few hundred rows and counts the rest (issue 14).
      const counted = store.countSessionRequestsByStatus(sessionId);
      const named = (statuses: RequestStatus[], total: number) => ({
        total,
        items: store
          .listFirstSessionRequests(sessionId, MAX_REPORT_NAMED, statuses)
          .map(toRequestRecord),
      });
      const spend = spendTally();
      store.forEachSessionTranscript(sessionId, 'usage', spend.add);
      // An empty page of the timeline: only its count.
      const timeline = store.pageSessionTimeline(sessionId, { limit: 0 });
      return {
        markdown: buildSessionReport({
          ...this.sessionDetail(s),
          transcript: store.firstOfSessionTimeline(sessionId, MAX_TIMELINE).map(timelineEntry),
          transcriptTotal: timeline.total,
          requests: store
            .listFirstSessionRequests(sessionId, MAX_REPORT_REQUESTS)
            .map(toRequestRecord),
          counts: {
            requests: counted.total,
            approved: counted.approved,
            denied: named(['denied'], counted.denied),
            waiting: named(['pending', 'timed_out'], counted.pending + counted.timedOut),
            spend: spend.byModel(),
          },
          audit,
          now: iso(deps.clock.now()),
        }),
        filename: `gatehouse-report-${s.sessionId}.md`,
      };
    },
  };

  audit(p: In<'audit.query'>): Out<'audit.query'> {
    const { since, until, ...rest } = p;
    const { items, ...page } = this.x.deps.store.pageAudit({
      ...rest,
      ...(since ? { sinceMs: timeParam('since', since) } : {}),
      ...(until ? { untilMs: timeParam('until', until) } : {}),
    });
    return { events: items, ...page };
  }

  readonly rules = {
    list: (): Out<'rules.list'> => ({ rules: [...this.x.rules.list()] }),
    add: (p: In<'rules.add'>): Out<'rules.add'> => {
      const { tier, note, ...draft } = p;
      const problem =
        draft.commandPrefix !== undefined ? commandPrefixProblem(draft.commandPrefix) : undefined;
      if (problem) throw new GatehouseError(ErrorCode.InvalidParams, problem);
      const matchers = normaliseDraft(draft);
      const rule = this.x.rules.add(compact({ ...matchers, tier, note, source: 'user' as const }));
      return { rule, description: describeRule(rule) };
    },
    /** The narrowest rule "always" would save for a request, and the steps that widen it. */
    preview: (p: In<'rules.preview'>): Out<'rules.preview'> => {
      const { draft, widenings } = draftLadder(this.x.queue.get(p.requestId));
      return { draft, widenings, describe: [draft, ...widenings].map(describeRule) };
    },
    remove: (p: In<'rules.remove'>): Out<'rules.remove'> => {
      this.x.rules.remove(p.ruleId);
      return { removed: true as const };
    },
  };

  readonly settings = {
    get: (p: In<'settings.get'>): Out<'settings.get'> => ({
      settings: this.x.settings.get() as Record<string, unknown>,
      ...(p.key ? { value: this.x.settings.getKey(p.key) } : {}),
    }),
    set: (p: In<'settings.set'>): Out<'settings.set'> => ({
      settings: this.x.settings.set(p.key, p.value) as Record<string, unknown>,
    }),
  };

  /** "Make it a rule" suggestions from repeated approvals. */
  readonly suggestions = {
    list: (p: In<'suggestions.list'>): Out<'suggestions.list'> => ({
      suggestions: this.x.suggestions
        .list(p.sessionId)
        .slice(0, MAX_LISTED_SUGGESTIONS)
        .map(toWire),
      threshold: this.x.suggestions.threshold(),
    }),
    accept: (p: In<'suggestions.accept'>): Out<'suggestions.accept'> => {
      const prefix = p.draft?.commandPrefix;
      const problem = prefix !== undefined ? commandPrefixProblem(prefix) : undefined;
      if (problem) throw new GatehouseError(ErrorCode.InvalidParams, problem);
      const rule = this.x.suggestions.accept(p.key, p.draft, p.via);
      return { rule, description: describeRule(rule) };
    },
    /** "Not now": hides a suggestion for `rules.suggestionSnoozeDays`. */
    snooze: (p: In<'suggestions.snooze'>): Out<'suggestions.snooze'> => ({
      key: p.key,
      snoozedUntil: iso(this.x.suggestions.snooze(p.key, p.via)),
    }),
  };

  private sessionDetail(s: SessionRow) {
    return {
      session: this.x.sessions.record(s),
      ...(s.summaryJson
        ? {
            summary: currentSummary(
              boundedSummary(JSON.parse(s.summaryJson) as SessionSummary),
              s,
              this.x.deps.store.sessionSummaryFacts(s.sessionId, SUMMARY_MAX_ITEMS),
            ),
          }
        : {}),
    };
  }
}
