import { useEffect, useState } from 'react';
import { useApi } from '../api-context';
import { usePendingQueue } from '../state/pending-queue';
import { useRoute, VIEWS, type View } from '../state/route';
import { useConnectionState, useGatehouseEvents } from '../state/use-events';
import { BudgetsView } from '../views/BudgetsView';
import { ConservativeBanner } from '../views/ConservativeBanner';
import { HistoryView } from '../views/HistoryView';
import { PendingView } from '../views/PendingView';
import { SessionsView } from '../views/SessionsView';
import { SettingsView } from '../views/SettingsView';
import { NoticeProvider, useNotify } from './notice';
import { JoinedHubBadge, JoinedHubProvider } from '../hub/joined-hub';
import { errorText } from '../util/format';
import { isTyping } from '../util/keys';

const VIEW_LABELS: Record<View, string> = {
  pending: 'Pending',
  history: 'History',
  sessions: 'Sessions',
  budgets: 'Budgets & breakers',
  settings: 'Settings',
};

const CONNECTION_LABELS = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Secret refused: open the URL the daemon printed',
} as const;

export function App() {
  return (
    <NoticeProvider>
      <JoinedHubProvider>
        <Shell />
      </JoinedHubProvider>
    </NoticeProvider>
  );
}

function Shell() {
  const [route, navigate] = useRoute();
  const queue = usePendingQueue();
  const connection = useConnectionState();
  // One definition of "waiting for you" (pending plus timed out), as `status` and `list` count.
  const pendingCount = queue.requests.length + queue.unloaded;
  const timedOutCount = queue.requests.filter((r) => r.status === 'timed_out').length;

  useEffect(() => {
    document.title = pendingCount > 0 ? `(${pendingCount}) Gatehouse` : 'Gatehouse';
  }, [pendingCount]);

  // Digits switch views from anywhere outside a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      const index = Number(e.key) - 1;
      const view = VIEWS[index];
      if (view) {
        e.preventDefault();
        navigate({ view });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);

  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">Gatehouse</h1>
        <nav aria-label="Views" className="tabs">
          {VIEWS.map((view, i) => (
            <a
              key={view}
              id={`nav-${view}`}
              data-testid={`nav-${view}`}
              href={`#view=${view}`}
              className={route.view === view ? 'tab active' : 'tab'}
              aria-current={route.view === view ? 'page' : undefined}
              aria-keyshortcuts={String(i + 1)}
            >
              {VIEW_LABELS[view]}
              {view === 'pending' && pendingCount > 0 && (
                <span
                  className="badge"
                  data-testid="pending-count"
                  aria-label={`${pendingCount} waiting for you${timedOutCount ? `, ${timedOutCount} timed out` : ''}`}
                  title={timedOutCount ? `${timedOutCount} of them timed out` : undefined}
                >
                  {pendingCount}
                </span>
              )}
            </a>
          ))}
        </nav>
        <PauseToggle />
        <JoinedHubBadge />
        <span
          className={`connection connection-${connection}`}
          data-testid="connection-status"
          data-state={connection}
          role="status"
        >
          {CONNECTION_LABELS[connection]}
        </span>
      </header>
      <ConservativeBanner />
      <main className="content" id="main">
        {route.view === 'pending' && (
          <PendingView
            queue={queue}
            selectedId={route.requestId}
            onSelect={(requestId) => navigate({ view: 'pending', requestId })}
          />
        )}
        {route.view === 'history' && <HistoryView />}
        {route.view === 'sessions' && (
          <SessionsView
            selectedId={route.sessionId}
            onSelect={(sessionId) => navigate({ view: 'sessions', sessionId })}
          />
        )}
        {route.view === 'budgets' && <BudgetsView />}
        {route.view === 'settings' && <SettingsView />}
      </main>
    </div>
  );
}

/** Pause or resume every agent at once; the state follows `agent.control` events. */
function PauseToggle() {
  const api = useApi();
  const notify = useNotify();
  const [paused, setPaused] = useState<boolean | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.getStatus().then(
      (s) => setPaused(s.paused),
      () => setPaused(undefined),
    );
  }, [api]);
  // A pause of one agent does not pause all: ask the daemon what the global state is now.
  useGatehouseEvents((event) => {
    if (event.type === 'agent.control') void api.getStatus().then((s) => setPaused(s.paused));
  });

  if (paused === undefined) return null;
  const toggle = async () => {
    setBusy(true);
    try {
      const result = paused
        ? await api.resume({})
        : await api.pause({ reason: 'paused from the dashboard' });
      setPaused(result.state !== 'resumed');
      notify('info', result.state === 'resumed' ? 'All agents resumed' : 'All agents paused');
    } catch (error) {
      notify('error', `Could not ${paused ? 'resume' : 'pause'}: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      id="pause-toggle"
      data-testid="pause-toggle"
      className={paused ? 'button warn' : 'button'}
      aria-pressed={paused}
      disabled={busy}
      onClick={() => void toggle()}
    >
      {paused ? 'Resume all agents' : 'Pause all agents'}
    </button>
  );
}
