export const VIEWS = ['pending', 'history', 'sessions', 'budgets', 'settings'] as const;
export type View = (typeof VIEWS)[number];

/** Where the UI is, kept in the URL fragment so the shell and notifications can deep-link. */
export interface Route {
  view: View;
  /** `#request=<id>` opens that request (the Electron shell and notifications use this). */
  requestId?: string | undefined;
  sessionId?: string | undefined;
}

export function parseRoute(hash: string): Route {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const requestId = params.get('request') ?? undefined;
  const sessionId = params.get('session') ?? undefined;
  const named = params.get('view');
  const view: View = (VIEWS as readonly string[]).includes(named ?? '')
    ? (named as View)
    : sessionId
      ? 'sessions'
      : 'pending';
  return { view, requestId, sessionId };
}

export function formatRoute(route: Route): string {
  const params = new URLSearchParams();
  if (route.view !== 'pending' || (!route.requestId && !route.sessionId))
    params.set('view', route.view);
  if (route.requestId) params.set('request', route.requestId);
  if (route.sessionId) params.set('session', route.sessionId);
  return `#${params.toString()}`;
}
