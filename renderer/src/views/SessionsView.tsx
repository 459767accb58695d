import { useState } from 'react';
import { useApi } from '../api-context';
import { agentActivity } from '../../../shared/agent-activity';
import { SessionDetail } from './SessionDetail';
import { useNotify } from '../components/notice';
import { ErrorNote } from '../components/fields';
import { PAGE, PagedFooter, WindowedList } from '../components/paged';
import { usePagedQuery } from '../state/use-paged-query';
import { useLiveQuery } from '../state/use-query';
import { errorText, formatTime, formatUsd, projectName } from '../util/format';
import { AgentText } from '../components/agent-text';

interface Props {
  selectedId: string | undefined;
  onSelect: (sessionId: string) => void;
}

/** Agents and their sessions; a session opens with its summary and transcript. */
export function SessionsView({ selectedId, onSelect }: Props) {
  const api = useApi();
  const [status, setStatus] = useState<'all' | 'active' | 'ended'>('all');
  // How far down the detail starts: level with the row that was clicked (0: at the top).
  const [detailTop, setDetailTop] = useState(0);
  // Newest first, as the daemon pages them.
  const sessions = usePagedQuery(
    (page) => api.listSessions({ status, ...page }).then((r) => ({ ...r, items: r.sessions })),
    [api, status],
    (e) => e.type.startsWith('session.'),
    PAGE,
  );
  const list = sessions.items;
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
        <ErrorNote error={sessions.error} />
        <WindowedList
          items={list}
          onNearEnd={sessions.loadMore}
          className="request-list"
          label="Sessions"
          testId="session-list"
          renderItem={(s) => (
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
                onClick={(e) => {
                  onSelect(s.sessionId);
                  setDetailTop(besideRow(e.currentTarget));
                  // Where the detail sits below the list (a narrow window), bring it to the
                  // person; beside the row it is already in view.
                  requestAnimationFrame(() =>
                    document
                      .getElementById('session-detail-pane')
                      ?.scrollIntoView({ block: 'nearest' }),
                  );
                }}
              >
                <span className="request-title">
                  <AgentText text={s.agent} /> · <AgentText text={projectName(s.project)} />
                </span>
                <span className="request-meta">
                  <span className={`status status-${s.status}`}>{s.status}</span>
                  <time dateTime={s.startedAt}>{formatTime(s.startedAt)}</time>
                  <span>{formatUsd(s.costUsd)}</span>
                </span>
              </button>
            </li>
          )}
        />
        <PagedFooter list={sessions} noun="sessions" testId="sessions-more" />
        {!sessions.loading && list.length === 0 && <p className="empty">No sessions yet.</p>}
      </section>
      <section
        className="detail-pane"
        style={detailTop ? { marginTop: detailTop } : undefined}
        id="session-detail-pane"
        data-testid="session-detail-pane"
        aria-label="Session"
      >
        {selectedId ? (
          <SessionDetail sessionId={selectedId} />
        ) : (
          <p className="empty">Select a session to see its summary and transcript.</p>
        )}
      </section>
    </div>
  );
}

/**
 * Where the detail should start so that it opens beside the clicked row, not at the top of a
 * list scrolled far down: the row's distance from the top of the view, in the two-column
 * layout; 0 where the detail sits below the list (one column).
 */
function besideRow(button: HTMLElement): number {
  const row = button.closest('li');
  const view = button.closest('.sessions-view');
  if (!row || !view) return 0;
  if (getComputedStyle(view).gridTemplateColumns.trim().split(/\s+/).length < 2) return 0;
  return Math.max(0, row.getBoundingClientRect().top - view.getBoundingClientRect().top);
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
            <td>
              <AgentText text={a.agent} />
            </td>
            <td>
              <span className={`status status-${agentActivity(a)}`} data-testid="agent-activity">
                {agentActivity(a)}
              </span>
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
