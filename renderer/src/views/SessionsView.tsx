import { useRef, useState } from 'react';
import { useApi } from '../api-context';
import { ReportDownload } from './ReportDownload';
import { useNotify } from '../components/notice';
import { PagedFooter } from '../components/paged';
import { usePagedQuery } from '../state/use-paged-query';
import { useLiveQuery } from '../state/use-query';
import { useRowWindow } from '../util/use-window';
import { errorText, formatTime, formatUsd, projectName } from '../util/format';

/** Sessions each call loads; the list grows a page at a time as it is scrolled. */
const PAGE = 100;
/** Lists up to this long are drawn whole; longer ones only around what is in view. */
const DRAWN_WHOLE = 150;

interface Props {
  selectedId: string | undefined;
  onSelect: (sessionId: string) => void;
}

/** Agents and their sessions; a session opens with its summary and transcript. */
export function SessionsView({ selectedId, onSelect }: Props) {
  const api = useApi();
  const [status, setStatus] = useState<'all' | 'active' | 'ended'>('all');
  // Newest first, as the daemon pages them.
  const sessions = usePagedQuery(
    (page) => api.listSessions({ status, ...page }).then((r) => ({ ...r, items: r.sessions })),
    [api, status],
    (e) => e.type.startsWith('session.'),
    PAGE,
  );
  const listRef = useRef<HTMLUListElement>(null);
  const list = sessions.items;
  const drawn = useRowWindow(listRef, list.length, DRAWN_WHOLE, sessions.loadMore);
  return (
    <div className="sessions-view">
      <section className="queue-pane" aria-labelledby="sessions-title">
        <div className="pane-header">
          <h2 id="sessions-title">Sessions</h2>
          <label>
            <span className="visually-hidden">Show sessions</span>
            <select
              id="sessions-status"
              data-testid="sessions-status"
              value={status}
              onChange={(e) => setStatus(e.target.value as typeof status)}
            >
              <option value="all">all</option>
              <option value="active">active</option>
              <option value="ended">ended</option>
            </select>
          </label>
        </div>
        <Agents />
        {sessions.error && (
          <p className="error" role="alert">
            {sessions.error}
          </p>
        )}
        <ul
          ref={listRef}
          className="request-list"
          aria-label="Sessions"
          data-testid="session-list"
          data-count={list.length}
          style={{ paddingTop: drawn.before, paddingBottom: drawn.after }}
        >
          {list.slice(drawn.start, drawn.end).map((s) => (
            <li
              key={s.sessionId}
              className={`request-row${s.sessionId === selectedId ? ' current' : ''}`}
              data-testid="session-item"
              data-session-id={s.sessionId}
            >
              <button
                type="button"
                className="request-open"
                id={`session-${s.sessionId}`}
                aria-current={s.sessionId === selectedId ? 'true' : undefined}
                onClick={() => onSelect(s.sessionId)}
              >
                <span className="request-title">
                  {s.agent} · {projectName(s.project)}
                </span>
                <span className="request-meta">
                  <span className={`status status-${s.status}`}>{s.status}</span>
                  <time dateTime={s.startedAt}>{formatTime(s.startedAt)}</time>
                  <span>{formatUsd(s.costUsd)}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
        <PagedFooter
          shown={list.length}
          {...(sessions.total !== undefined ? { total: sessions.total } : {})}
          hasMore={sessions.hasMore}
          noun="sessions"
          testId="sessions-more"
        />
        {!sessions.loading && list.length === 0 && <p className="empty">No sessions yet.</p>}
      </section>
      <section className="detail-pane" aria-label="Session">
        {selectedId ? (
          <SessionDetail sessionId={selectedId} />
        ) : (
          <p className="empty">Select a session to see its summary and transcript.</p>
        )}
      </section>
    </div>
  );
}

function SessionDetail({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const query = useLiveQuery(
    () => api.getSession(sessionId),
    [api, sessionId],
    (e) =>
      ((e.type === 'session.ended' || e.type === 'session.started') &&
        e.session.sessionId === sessionId) ||
      (e.type.startsWith('request.') && 'request' in e && e.request.sessionId === sessionId),
  );
  if (query.error) {
    return (
      <p className="error" role="alert">
        {query.error}
      </p>
    );
  }
  const detail = query.data;
  if (!detail) return <p className="empty">Loading…</p>;
  const { session, summary, transcript, requests } = detail;
  return (
    <article
      className="session-detail"
      data-testid="session-detail"
      aria-labelledby="session-title"
    >
      <h2 id="session-title">
        {session.agent} <span className={`status status-${session.status}`}>{session.status}</span>
      </h2>
      <dl className="facts">
        <dt>Project</dt>
        <dd>{session.project ?? '—'}</dd>
        <dt>Started</dt>
        <dd>{formatTime(session.startedAt)}</dd>
        <dt>Ended</dt>
        <dd>{formatTime(session.endedAt)}</dd>
        <dt>Cost</dt>
        <dd>{formatUsd(session.costUsd)}</dd>
        <dt>Session id</dt>
        <dd>
          <code>{session.sessionId}</code>
        </dd>
      </dl>
      <ReportDownload sessionId={session.sessionId} />
      {summary && (
        <section aria-labelledby="summary-title" className="summary" data-testid="session-summary">
          <h3 id="summary-title">Summary</h3>
          <p className="summary-text">{summary.text}</p>
        </section>
      )}
      {requests.length > 0 && (
        <section aria-labelledby="session-requests-title">
          <h3 id="session-requests-title">Requests</h3>
          <ul className="plain">
            {requests.map((r) => (
              <li key={r.requestId}>
                <span className={`status status-${r.status}`}>{r.status.replace('_', ' ')}</span>{' '}
                <a href={`#request=${encodeURIComponent(r.requestId)}`}>{r.description}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="transcript-title">
        <h3 id="transcript-title">Transcript</h3>
        <ol className="transcript" data-testid="transcript">
          {transcript.map((t, i) => (
            <li key={i} className={`transcript-${t.kind}`}>
              <time dateTime={t.at}>{new Date(t.at).toLocaleTimeString()}</time>
              <span className="kind">{t.kind}</span>
              <span>{t.text}</span>
            </li>
          ))}
        </ol>
        {transcript.length === 0 && <p className="empty">Nothing recorded yet.</p>}
      </section>
    </article>
  );
}

/** Every agent with its state, and pause / resume for one of them. */
function Agents() {
  const api = useApi();
  const notify = useNotify();
  const agents = useLiveQuery(
    () => api.listAgents(),
    [api],
    (e) => e.type === 'agent.control' || e.type.startsWith('session.'),
  );
  const list = agents.data?.agents ?? [];
  if (list.length === 0) return null;
  const act = async (agent: string, what: 'pause' | 'resume') => {
    try {
      await (what === 'pause'
        ? api.pause({ agent, reason: 'paused from the dashboard' })
        : api.resume({ agent }));
      agents.reload();
    } catch (error) {
      notify('error', `Could not ${what} ${agent}: ${errorText(error)}`);
    }
  };
  return (
    <table className="table compact" data-testid="agents-table" aria-label="Agents">
      <thead>
        <tr>
          <th scope="col">Agent</th>
          <th scope="col">State</th>
          <th scope="col">Sessions</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {list.map((a) => (
          <tr key={a.agent} data-testid="agent-row" data-agent={a.agent}>
            <td>{a.agent}</td>
            <td>
              <span className={`status status-${a.state}`}>{a.state}</span>
            </td>
            <td>{a.sessions}</td>
            <td>
              {a.state === 'running' ? (
                <button
                  type="button"
                  className="button subtle"
                  aria-label={`Pause ${a.agent}`}
                  onClick={() => void act(a.agent, 'pause')}
                >
                  Pause
                </button>
              ) : (
                <button
                  type="button"
                  className="button subtle"
                  aria-label={`Resume ${a.agent}`}
                  onClick={() => void act(a.agent, 'resume')}
                >
                  Resume
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
