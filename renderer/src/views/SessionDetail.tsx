import { useState } from 'react';
import type { GatehouseEvent } from '../../../shared/events';
import { useApi } from '../api-context';
import { ErrorNote } from '../components/fields';
import { PAGE, PagedFooter, WindowedList } from '../components/paged';
import { usePagedQuery } from '../state/use-paged-query';
import { useLiveQuery } from '../state/use-query';
import { formatTime, formatUsd } from '../util/format';
import { ReportDownload } from './ReportDownload';
import { AgentText } from '../components/agent-text';
import { visibleText } from '../../../shared/visible-text';

type DetailTab = 'transcript' | 'requests';

/** Whether an event changes what a session's detail shows. */
const touches = (sessionId: string) => (e: GatehouseEvent) =>
  ((e.type === 'session.ended' || e.type === 'session.started') &&
    e.session.sessionId === sessionId) ||
  (e.type.startsWith('request.') && 'request' in e && e.request.sessionId === sessionId);

/**
 * A session: its facts and summary, then its transcript or its requests, newest first, each
 * loaded a page at a time as it scrolls and drawn only around what is in view, so a session
 * that ran all day opens as fast as a short one.
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
        <AgentText text={session.agent} />{' '}
        <span className={`status status-${session.status}`}>{session.status}</span>
      </h2>
      <dl className="facts">
        <dt>Project</dt>
        <dd>{session.project ? <AgentText text={session.project} /> : '—'}</dd>
        <dt>Started</dt>
        <dd>{formatTime(session.startedAt)}</dd>
        <dt>Ended</dt>
        <dd>{formatTime(session.endedAt)}</dd>
        <dt>Cost</dt>
        <dd>{formatUsd(session.costUsd)}</dd>
        <dt>Session id</dt>
        <dd>
          <code>
            <AgentText text={session.sessionId} />
          </code>
        </dd>
      </dl>
      <ReportDownload sessionId={session.sessionId} />
      {summary && (
        <section aria-labelledby="summary-title" className="summary" data-testid="session-summary">
          <h3 id="summary-title">Summary</h3>
          <p className="summary-text">
            <AgentText text={summary.text} />
          </p>
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
  const list = entries.items;
  return (
    <>
      <ErrorNote error={entries.error} />
      <WindowedList
        ordered
        items={list}
        onNearEnd={entries.loadMore}
        className="transcript"
        testId="transcript"
        renderItem={(t, index) => (
          <li
            key={index}
            className={`transcript-${t.kind}`}
            data-testid="transcript-entry"
            title={visibleText(t.text)}
          >
            <time dateTime={t.at}>{formatTime(t.at)}</time>
            <span className="kind">{t.kind}</span>
            <span className="transcript-text">
              <AgentText text={t.text} />
            </span>
          </li>
        )}
      />
      <PagedFooter list={entries} noun="entries" testId="transcript-more" />
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
  const list = requests.items;
  return (
    <>
      <ErrorNote error={requests.error} />
      <WindowedList
        items={list}
        onNearEnd={requests.loadMore}
        className="plain session-requests"
        testId="session-requests"
        renderItem={(r) => (
          <li key={r.requestId} data-testid="session-request" title={visibleText(r.description)}>
            <span className={`status status-${r.status}`}>{r.status.replace('_', ' ')}</span>{' '}
            <a href={`#request=${encodeURIComponent(r.requestId)}`}>
              <AgentText text={r.description} />
            </a>
          </li>
        )}
      />
      <PagedFooter list={requests} noun="requests" testId="session-requests-more" />
      {!requests.loading && list.length === 0 && (
        <p className="empty">The agent asked for nothing.</p>
      )}
    </>
  );
}
