import type { GatehouseEvent } from './events';
import type { AdminMethod, AdminParams, AdminResult } from './protocol/method-map';

/**
 * How an admin API call travels: Electron IPC in the desktop app, HTTP on the headless
 * dashboard, the socket for the CLI. Each transport validates again on its far side.
 */
export interface AdminTransport {
  invoke<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>>;
  /** Delivers every engine event until the returned function is called. */
  subscribe(listener: (event: GatehouseEvent) => void): () => void;
}

/**
 * The narrow, verb-named API the UI uses, built over any transport. In the desktop app the
 * preload exposes it as `window.gatehouse`; the dashboard builds it over HTTP. A verb exists
 * only for what the UI calls: an admin method the UI does not use needs none. Each verb goes
 * through `call`, so a verb naming a method the map lacks, or passing it the wrong params,
 * fails to compile, and each answers with its method's result type.
 */
export function createGatehouseApi(transport: AdminTransport) {
  const call = <K extends AdminMethod>(method: K, params: AdminParams<K>) =>
    transport.invoke(method, params);
  const verbs = {
    getStatus: () => call('status', {}),
    listPending: (params: AdminParams<'pending.list'> = {}) => call('pending.list', params),
    queryRequests: (params: AdminParams<'requests.query'> = {}) => call('requests.query', params),
    getRequest: (requestId: string) => call('request.get', { requestId }),
    /** The full diff of what a request's push sends, computed when asked. */
    getRequestDiff: (requestId: string) => call('request.diff', { requestId }),
    decide: (params: AdminParams<'decide'>) => call('decide', params),
    decideMany: (params: AdminParams<'decideMany'>) => call('decideMany', params),
    listGrants: (params: AdminParams<'grants.list'> = {}) => call('grants.list', params),
    listAgents: () => call('agents.list', {}),
    pause: (params: AdminParams<'pause'> = {}) => call('pause', params),
    resume: (params: AdminParams<'resume'> = {}) => call('resume', params),
    kill: (params: AdminParams<'kill'> = {}) => call('kill', params),
    listSessions: (params: AdminParams<'sessions.list'> = {}) => call('sessions.list', params),
    /** A session, its summary, its newest requests and transcript entries, and their counts. */
    getSession: (sessionId: string, bounds: Omit<AdminParams<'session.get'>, 'sessionId'> = {}) =>
      call('session.get', { sessionId, ...bounds }),
    /** A session's transcript a page at a time, newest first. */
    getSessionTranscript: (params: AdminParams<'session.transcript'>) =>
      call('session.transcript', params),
    getSessionReport: (sessionId: string) => call('session.report', { sessionId }),
    queryAudit: (params: AdminParams<'audit.query'> = {}) => call('audit.query', params),
    listRules: () => call('rules.list', {}),
    addRule: (params: AdminParams<'rules.add'>) => call('rules.add', params),
    /** The narrowest rule "always" would save for a request, and the steps that widen it. */
    previewRule: (requestId: string) => call('rules.preview', { requestId }),
    removeRule: (ruleId: string) => call('rules.remove', { ruleId }),
    getSettings: () => call('settings.get', {}),
    setSetting: (key: string, value: unknown) => call('settings.set', { key, value }),
    getGuardBudgets: (params: AdminParams<'guards.budgets'> = {}) => call('guards.budgets', params),
    listBreakers: () => call('guards.breakers', {}),
    resetBreaker: (params: AdminParams<'guards.reset'>) => call('guards.reset', params),
    /** A person's "try again" for a session in conservative mode. */
    recoverSession: (sessionId: string) => call('guards.recover', { sessionId }),
    getLadder: (params: AdminParams<'ladder.get'> = {}) => call('ladder.get', params),
    setLadderLevel: (params: AdminParams<'ladder.set'>) => call('ladder.set', params),
    listPolicyTrust: () => call('trust.list', {}),
    previewPolicyTrust: (dir: string) => call('trust.preview', { dir }),
    trustPolicy: (params: AdminParams<'trust.add'>) => call('trust.add', params),
    untrustPolicy: (params: AdminParams<'trust.remove'>) => call('trust.remove', params),
    /** "Make it a rule" suggestions from repeated approvals (optionally of one session). */
    listSuggestions: (params: AdminParams<'suggestions.list'> = {}) =>
      call('suggestions.list', params),
    acceptSuggestion: (params: AdminParams<'suggestions.accept'>) =>
      call('suggestions.accept', params),
    /** "Not now": hides a suggestion for `rules.suggestionSnoozeDays`. */
    snoozeSuggestion: (params: AdminParams<'suggestions.snooze'>) =>
      call('suggestions.snooze', params),
    /** A signed link to decide the request from a phone (`gatehouse link ID`). */
    getDecisionLink: (params: AdminParams<'request.link'>) => call('request.link', params),
    /** New random ntfy topics made and saved by the daemon; answers the subscribe URL. */
    setupNtfy: (params: AdminParams<'ntfy.setup'> = {}) => call('ntfy.setup', params),
    /** Sends a test notification through one channel; answers ok or the channel's error. */
    testNotification: (channel: AdminParams<'notifications.test'>['channel']) =>
      call('notifications.test', { channel }),
    /** The chats that wrote to the saved Telegram bot, waiting up to `waitS` for a `/start`. */
    findTelegramChats: (waitS: number) => call('chat.telegramChats', { waitS }),
    /** Sends requests to a chat that wrote to the bot; its writer may decide. */
    useTelegramChat: (params: AdminParams<'chat.telegramUse'>) => call('chat.telegramUse', params),
    /** Deletes history older than `retention.days` now, or (`dryRun`) says what would go. */
    pruneHistory: (params: AdminParams<'retention.prune'> = {}) => call('retention.prune', params),
  };
  return {
    ...verbs,
    /** Subscribes to engine events; returns the unsubscribe function. */
    onEvent: (listener: (event: GatehouseEvent) => void) => transport.subscribe(listener),
  };
}

export type GatehouseApi = ReturnType<typeof createGatehouseApi>;
