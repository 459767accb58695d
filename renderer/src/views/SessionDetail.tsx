import { useRef, useState } from 'react';
import type { GatehouseEvent } from '../../../shared/events';
import { useApi } from '../api-context';
import { PagedFooter } from '../components/paged';
import { usePagedQuery } from '../state/use-paged-query';
import { useLiveQuery } from '../state/use-query';
import { formatTime, formatUsd } from '../util/format';
import { useRowWindow } from '../util/use-window';
import { ReportDownload } from './ReportDownload';

/** Entries or requests each call loads; a list grows a page at a time as it is scrolled. */
const PAGE = 100;
/** Lists up to this long are drawn whole; longer ones only around what is in view. */
const DRAWN_WHOLE = 150;

type DetailTab = 'transcript' | 'requests';

/** Whether an event changes what a session's detail shows. */
const touches = (sessionId: string) => (e: GatehouseEvent) =>
  ((e.type === 'session.ended' || e.type === 'session.started') &&
    e.session.sessionId === sessionId) ||
  (e.type.startsWith('request.') && 'request' in e && e.request.sessionId === sessionId);

/**
 * A session: its facts and summary, then its transcript or its requests, newest first, each
 * loaded a page at a time as it scrolls and drawn only around what is in view, so a session
 * that ran all day opens as fast as a short one (issue 14).
 */
export function SessionDetail({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const [tab, setTab] = useState<DetailTab>('transcript');
  // The facts, the summary and the counts: the lists below read their own pages.
  const query = useLiveQuery(
    () => api.getSession(sessionId, { requestsLimit: 0, transcriptLimit: 0 }),
    [api, sessionId],
    touches(sessionId),
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
  const { session, summary, transcriptTotal, requestsTotal } = detail;
  const tabs: readonly { id: DetailTab; label: string; count: number }[] = [
    { id: 'transcript', label: 'Transcript', count: transcriptTotal },
    { id: 'requests', label: 'Requests', count: requestsTotal },
  ];
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
      <div role="tablist" aria-label="Session" className="segmented">
        {tabs.map(({ id, label, count }) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`session-tab-${id}`}
            data-testid={`session-tab-${id}`}
            aria-selected={tab === id}
            aria-controls="session-panel"
            onClick={() => setTab(id)}
          >
            {label} ({count.toLocaleString('en-US')})
          </button>
        ))}
      </div>
      <section role="tabpanel" id="session-panel" aria-labelledby={`session-tab-${tab}`}>
        {tab === 'transcript' ? (
          <Transcript sessionId={sessionId} />
        ) : (
          <Requests sessionId={sessionId} />
        )}
      </section>
    </article>
  );
}

/** The session's transcript, newest entry first. */
function Transcript({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const entries = usePagedQuery(
    (page) =>
      api.getSessionTranscript({ sessionId, ...page }).then((r) => ({ ...r, items: r.transcript })),
    [api, sessionId],
    touches(sessionId),
    PAGE,
  );
  const listRef = useRef<HTMLOListElement>(null);
  const list = entries.items;
  const drawn = useRowWindow(listRef, list.length, DRAWN_WHOLE, entries.loadMore);
  return (
    <>
      {entries.error && (
        <p className="error" role="alert">
          {entries.error}
        </p>
      )}
      <ol
        ref={listRef}
        className="transcript"
        data-testid="transcript"
        data-count={list.length}
        style={{ paddingTop: drawn.before, paddingBottom: drawn.after }}
      >
        {list.slice(drawn.start, drawn.end).map((t, i) => (
          <li
            key={drawn.start + i}
            className={`transcript-${t.kind}`}
            data-testid="transcript-entry"
            title={t.text}
          >
            <time dateTime={t.at}>{new Date(t.at).toLocaleTimeString()}</time>
            <span className="kind">{t.kind}</span>
            <span className="transcript-text">{t.text}</span>
          </li>
        ))}
      </ol>
      <PagedFooter
        shown={list.length}
        {...(entries.total !== undefined ? { total: entries.total } : {})}
        hasMore={entries.hasMore}
        noun="entries"
        testId="transcript-more"
      />
      {!entries.loading && list.length === 0 && <p className="empty">Nothing recorded yet.</p>}
    </>
  );
}

/** The requests the session filed, newest first. */
function Requests({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const requests = usePagedQuery(
    (page) => api.queryRequests({ sessionId, ...page }).then((r) => ({ ...r, items: r.requests })),
    [api, sessionId],
    touches(sessionId),
    PAGE,
  );
  const listRef = useRef<HTMLUListElement>(null);
  const list = requests.items;
  const drawn = useRowWindow(listRef, list.length, DRAWN_WHOLE, requests.loadMore);
  return (
    <>
      {requests.error && (
        <p className="error" role="alert">
          {requests.error}
        </p>
      )}
      <ul
        ref={listRef}
        className="plain session-requests"
        data-testid="session-requests"
        data-count={list.length}
        style={{ paddingTop: drawn.before, paddingBottom: drawn.after }}
      >
        {list.slice(drawn.start, drawn.end).map((r) => (
          <li key={r.requestId} data-testid="session-request" title={r.description}>
            <span className={`status status-${r.status}`}>{r.status.replace('_', ' ')}</span>{' '}
            <a href={`#request=${encodeURIComponent(r.requestId)}`}>{r.description}</a>
          </li>
        ))}
      </ul>
      <PagedFooter
        shown={list.length}
        {...(requests.total !== undefined ? { total: requests.total } : {})}
        hasMore={requests.hasMore}
        noun="requests"
        testId="session-requests-more"
      />
      {!requests.loading && list.length === 0 && (
        <p className="empty">The agent asked for nothing.</p>
      )}
    </>
  );
}
