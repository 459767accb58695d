import type { RequestRecord } from '../../../shared/domain';
import { agentPresence } from '../../../shared/agent-presence';
import { formatAge, projectName } from '../util/format';
import { WindowedList } from '../components/paged';
import { ShownOnHubTag } from '../hub/joined-hub';
import { AgentText } from '../components/agent-text';
import { visibleText } from '../../../shared/visible-text';

/** Queues up to this long are drawn whole; longer ones only around what is in view. */
const DRAWN_WHOLE = 100;

interface Props {
  requests: RequestRecord[];
  currentId: string | undefined;
  checked: ReadonlySet<string>;
  now: number;
  onOpen: (requestId: string) => void;
  onToggle: (requestId: string) => void;
  /** Waiting requests not loaded yet (shown as a count at the end). */
  unloaded?: number;
  /** Loads the next page; called when the end of the list comes into view. */
  onLoadMore?: () => void;
}

/**
 * The review queue across agents: one row per request, what needs the person first (blocked
 * agents, urgency, then age: shared/queue-order.ts), urgent ones marked.
 */
export function PendingList({
  requests,
  currentId,
  checked,
  now,
  onOpen,
  onToggle,
  unloaded = 0,
  onLoadMore,
}: Props) {
  if (requests.length === 0) {
    return (
      <p className="empty" data-testid="pending-empty">
        Nothing is waiting for you. Requests from agents appear here as they arrive.
      </p>
    );
  }
  return (
    <>
      <WindowedList
        items={requests}
        drawnWhole={DRAWN_WHOLE}
        onNearEnd={onLoadMore}
        className="request-list"
        label="Pending requests"
        testId="pending-list"
        renderItem={(r) => {
          const current = r.requestId === currentId;
          return (
            <li
              key={r.requestId}
              className={`request-row row-urgency-${r.urgency}${current ? ' current' : ''}`}
              data-testid="pending-item"
              data-request-id={r.requestId}
              data-status={r.status}
            >
              <input
                type="checkbox"
                id={`select-${r.requestId}`}
                data-testid="pending-select"
                checked={checked.has(r.requestId)}
                onChange={() => onToggle(r.requestId)}
                aria-label={`Select: ${visibleText(r.description)}`}
              />
              <button
                type="button"
                className="request-open"
                id={`open-${r.requestId}`}
                data-testid="pending-open"
                aria-current={current ? 'true' : undefined}
                onClick={() => onOpen(r.requestId)}
              >
                <span className="request-title">
                  <AgentText text={r.description} />
                </span>
                <span className="request-meta">
                  <span className={`urgency urgency-${r.urgency}`}>{r.urgency}</span>
                  {r.risk && <span className={`urgency risk-${r.risk}`}>risk: {r.risk}</span>}
                  <span className="action">
                    <AgentText text={r.action} />
                  </span>
                  <span>
                    <AgentText text={r.agent} />
                  </span>
                  {agentPresence(r) && (
                    <span className="status-timed_out" data-testid="pending-agent-presence">
                      agent {agentPresence(r)}
                    </span>
                  )}
                  <span title={r.project && visibleText(r.project)}>
                    <AgentText text={projectName(r.project)} />
                  </span>
                  <time dateTime={r.createdAt}>{formatAge(r.createdAt, now)} ago</time>
                  {r.status === 'timed_out' && <span className="status-timed_out">timed out</span>}
                  <ShownOnHubTag requestId={r.requestId} />
                </span>
              </button>
            </li>
          );
        }}
      />
      {unloaded > 0 && (
        <p className="empty" data-testid="pending-unloaded">
          {unloaded.toLocaleString()} more waiting: scroll to load them.
        </p>
      )}
    </>
  );
}
