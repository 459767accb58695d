import { useState } from 'react';
import type { RequestStatus } from '../../../shared/domain';
import { useApi } from '../api-context';
import { ErrorNote, FilterField, TableHead } from '../components/fields';
import { PAGE, PagedFooter, WindowedTableBody } from '../components/paged';
import { usePagedQuery } from '../state/use-paged-query';
import { formatTime } from '../util/format';
import { useDebounced } from '../util/use-debounced';
import { AgentText } from '../components/agent-text';

const DECIDED: RequestStatus[] = ['approved', 'denied', 'cancelled', 'timed_out'];

/** Decisions made so far and the full audit trail, each with its own filters. */
type HistoryTab = 'decisions' | 'audit';
const TABS: readonly { id: HistoryTab; label: string }[] = [
  { id: 'decisions', label: 'Decisions' },
  { id: 'audit', label: 'Audit trail' },
];

export function HistoryView() {
  const [tab, setTab] = useState<HistoryTab>('decisions');
  return (
    <div className="history-view">
      <div className="pane-header">
        <h2>History</h2>
        <div role="tablist" aria-label="History" className="segmented">
          {TABS.map(({ id, label }) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`history-tab-${id}`}
              data-testid={`history-tab-${id}`}
              aria-selected={tab === id}
              aria-controls="history-panel"
              onClick={() => setTab(id)}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      <div role="tabpanel" id="history-panel" aria-labelledby={`history-tab-${tab}`}>
        {tab === 'decisions' ? <Decisions /> : <AuditTrail />}
      </div>
    </div>
  );
}

function Decisions() {
  const api = useApi();
  const [status, setStatus] = useState<RequestStatus | 'all'>('all');
  const [agent, setAgent] = useState('');
  const [action, setAction] = useState('');
  const filters = useDebounced({ status, agent: agent.trim(), action: action.trim() }, 250);
  // Newest first, as the daemon pages them (by when they were filed).
  const query = usePagedQuery(
    (page) =>
      api
        .queryRequests({
          status: filters.status === 'all' ? DECIDED : [filters.status],
          agent: filters.agent || undefined,
          action: filters.action || undefined,
          ...page,
        })
        .then((r) => ({ ...r, items: r.requests })),
    [api, filters.status, filters.agent, filters.action],
    (e) => e.type.startsWith('request.'),
    PAGE,
  );
  const rows = query.items;
  return (
    <>
      <form className="filters" aria-label="Filter decisions" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select
            id="history-status"
            data-testid="history-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as RequestStatus | 'all')}
          >
            <option value="all">all decided</option>
            {DECIDED.map((s) => (
              <option key={s} value={s}>
                {s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <FilterField label="Agent" id="history-agent" value={agent} onChange={setAgent} />
        <FilterField label="Action" id="history-action" value={action} onChange={setAction} />
      </form>
      <ErrorNote error={query.error} />
      <table className="table" data-testid="history-table">
        <TableHead
          columns={[
            'Decided',
            'Status',
            'Agent',
            'Action',
            'Description',
            'By',
            'Reason / message',
          ]}
        />
        <WindowedTableBody
          items={rows}
          columns={7}
          onNearEnd={query.loadMore}
          renderItem={(r) => (
            <tr
              key={r.requestId}
              data-testid="history-row"
              data-request-id={r.requestId}
              data-status={r.status}
            >
              <td className="nowrap">{formatTime(r.decidedAt ?? r.createdAt)}</td>
              <td>
                <span className={`status status-${r.status}`}>{r.status.replace('_', ' ')}</span>
              </td>
              <td>
                <AgentText text={r.agent} />
              </td>
              <td>
                <code>
                  <AgentText text={r.action} />
                </code>
              </td>
              <td>
                <a href={`#request=${encodeURIComponent(r.requestId)}`}>
                  <AgentText text={r.description} />
                </a>
              </td>
              <td>
                {r.decidedBy ?? '—'}
                {r.scope && r.scope !== 'once' ? ` (${r.scope})` : ''}
                {r.decidedVia ? ` via ${r.decidedVia}` : ''}
              </td>
              <td>
                {[r.reason, r.message, ...(r.conditions ?? [])].filter(Boolean).join(' · ') || '—'}
              </td>
            </tr>
          )}
        />
      </table>
      <PagedFooter list={query} noun="decisions" testId="history-more" />
      {!query.loading && rows.length === 0 && <p className="empty">No decisions match.</p>}
    </>
  );
}

function AuditTrail() {
  const api = useApi();
  const [type, setType] = useState('');
  const [agent, setAgent] = useState('');
  const [requestId, setRequestId] = useState('');
  const filters = useDebounced(
    { type: type.trim(), agent: agent.trim(), requestId: requestId.trim() },
    250,
  );
  // Newest first (by sequence), as the daemon pages them; counting every match would walk
  // the whole trail, so the footer says only that more exist.
  const query = usePagedQuery(
    (page) =>
      api
        .queryAudit({
          type: filters.type || undefined,
          agent: filters.agent || undefined,
          requestId: filters.requestId || undefined,
          ...page,
        })
        .then((r) => ({ ...r, items: r.events })),
    [api, filters.type, filters.agent, filters.requestId],
    () => true,
    PAGE,
  );
  const events = query.items;
  return (
    <>
      <form
        className="filters"
        aria-label="Filter the audit trail"
        onSubmit={(e) => e.preventDefault()}
      >
        <FilterField
          label="Type"
          id="audit-type"
          value={type}
          placeholder="request.denied"
          onChange={setType}
        />
        <FilterField label="Agent" id="audit-agent" value={agent} onChange={setAgent} />
        <FilterField
          label="Request id"
          id="audit-request"
          value={requestId}
          onChange={setRequestId}
        />
      </form>
      <ErrorNote error={query.error} />
      <table className="table" data-testid="audit-table">
        <TableHead columns={['#', 'At', 'Type', 'Agent', 'Request', 'Data']} />
        <WindowedTableBody
          items={events}
          columns={6}
          onNearEnd={query.loadMore}
          renderItem={(e) => (
            <tr key={e.seq} data-testid="audit-row" data-type={e.type}>
              <td>{e.seq}</td>
              <td className="nowrap">{formatTime(e.at)}</td>
              <td>
                <code>{e.type}</code>
              </td>
              <td>{e.agent ? <AgentText text={e.agent} /> : '—'}</td>
              <td className="nowrap">
                {e.requestId ? (
                  <a href={`#request=${encodeURIComponent(e.requestId)}`}>{e.requestId}</a>
                ) : (
                  '—'
                )}
              </td>
              <td>
                <code className="data">
                  <AgentText text={summarize(e.data)} />
                </code>
              </td>
            </tr>
          )}
        />
      </table>
      <PagedFooter list={query} noun="audit events" testId="audit-more" />
      {!query.loading && events.length === 0 && <p className="empty">No audit events match.</p>}
    </>
  );
}

/** The audit data in one line, cut short: the full record is in the database and CLI. */
function summarize(data: Record<string, unknown>): string {
  const text = JSON.stringify(data);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}
