import { useEffect, useMemo, useRef, useState } from 'react';
import type { RequestRecord } from '../../../shared/domain';
import { passesConnectionFilter, type ConnectionFilter } from '../../../shared/agent-presence';
import { useApi } from '../api-context';
import type { QueueState } from '../state/pending-queue';
import { errorText, similarityKey } from '../util/format';
import { hasSystemModifier, isTyping } from '../util/keys';
import { useNow } from '../util/use-now';
import { BatchBar } from './BatchBar';
import { DecisionPanel, type DecisionKeys } from './DecisionPanel';
import { PendingList } from './PendingList';
import { RequestDetail } from './RequestDetail';
import { RuleSuggestions } from './RuleSuggestions';
import { ShortcutHelp } from './ShortcutHelp';

const CONNECTION_FILTERS: readonly ConnectionFilter[] = ['all', 'connected', 'gone'];

interface Props {
  queue: QueueState & {
    applyDecided: (requests: RequestRecord[]) => void;
    loadMore?: () => void;
  };
  selectedId: string | undefined;
  onSelect: (requestId: string | undefined) => void;
}

/** The review queue and the request in focus, with single and batch decisions. */
export function PendingView({ queue, selectedId, onSelect }: Props) {
  const now = useNow(15_000);
  const [checkedIds, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [showHelp, setShowHelp] = useState(false);
  const [connection, setConnection] = useState<ConnectionFilter>('all');
  // The queue as the filter shows it: the list, the selection and j/k all go by what is shown.
  const requests = useMemo(
    () => queue.requests.filter((r) => passesConnectionFilter(r, connection)),
    [queue.requests, connection],
  );

  // Only requests still in the queue can stay checked.
  const checked = useMemo(
    () => new Set([...checkedIds].filter((id) => requests.some((r) => r.requestId === id))),
    [checkedIds, requests],
  );
  // A filter that hides every loaded request leaves nothing to scroll: load the next page.
  const { loadMore, nextCursor } = queue;
  useEffect(() => {
    if (requests.length === 0 && nextCursor) loadMore?.();
  }, [requests.length, nextCursor, loadMore]);
  const inQueue = requests.find((r) => r.requestId === selectedId);
  const current = inQueue ?? (selectedId ? undefined : requests[0]);
  const currentId = selectedId ?? current?.requestId;
  const index = requests.findIndex((r) => r.requestId === currentId);

  const toggle = (id: string) =>
    setChecked((set) => {
      const next = new Set(set);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const selectSimilar = (request: RequestRecord) => {
    const key = similarityKey(request);
    setChecked(new Set(requests.filter((r) => similarityKey(r) === key).map((r) => r.requestId)));
  };
  const afterDecision = (decided: RequestRecord[]) => {
    queue.applyDecided(decided);
    const gone = new Set(decided.map((r) => r.requestId));
    // The answer lands when the daemon sends it: the person may have gone to another view or
    // opened another request meanwhile. Leave them where they went; only a decision about the
    // request still on screen moves on to the next one.
    const { requests, index, currentId } = keys.current;
    if (!mounted.current || (currentId !== undefined && !gone.has(currentId))) return;
    const remaining = requests.filter((r) => !gone.has(r.requestId));
    // Move on to the request that took the decided one's place, so a run of decisions flows.
    const next = remaining[Math.min(Math.max(index, 0), remaining.length - 1)];
    onSelect(next?.requestId);
    // The button that had the focus went away with the decided request, and the focus fell
    // back to the page: put keyboard users on the request now in focus. Never take the focus
    // from a field the person has already moved to.
    requestAnimationFrame(() => {
      const focused = document.activeElement;
      if (next && (!focused || focused === document.body)) {
        document.getElementById(`open-${next.requestId}`)?.focus();
      }
    });
  };

  const panel = useRef<DecisionKeys>(null);
  const keys = useRef({ requests, index, onSelect, toggle, currentId });
  useEffect(() => {
    keys.current = { requests, index, onSelect, toggle, currentId };
  });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (hasSystemModifier(e) || isTyping(e.target)) return;
      const k = keys.current;
      const move = (delta: number) => {
        const next = k.requests[Math.min(k.requests.length - 1, Math.max(0, k.index + delta))];
        if (next) {
          k.onSelect(next.requestId);
          document.getElementById(`open-${next.requestId}`)?.focus();
        }
      };
      const run: Record<string, () => void> = {
        j: () => move(1),
        ArrowDown: () => move(1),
        k: () => move(-1),
        ArrowUp: () => move(-1),
        x: () => k.currentId && k.toggle(k.currentId),
        '?': () => setShowHelp((v) => !v),
        Escape: () => setShowHelp(false),
      };
      const action = run[e.key];
      if (action) {
        e.preventDefault();
        action();
      } else if (panel.current?.onKey(e)) {
        e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const selected = requests.filter((r) => checked.has(r.requestId));
  return (
    <div className="pending-view">
      <section className="queue-pane" aria-labelledby="queue-title">
        <div className="pane-header">
          <h2 id="queue-title">Pending gates</h2>
          <button
            type="button"
            className="button subtle"
            id="shortcut-help"
            data-testid="shortcut-help"
            aria-expanded={showHelp}
            onClick={() => setShowHelp((v) => !v)}
          >
            Shortcuts <kbd>?</kbd>
          </button>
        </div>
        <label className="queue-filter">
          Agents{' '}
          <select
            id="pending-connection-filter"
            data-testid="pending-connection-filter"
            value={connection}
            onChange={(e) =>
              setConnection(CONNECTION_FILTERS.find((f) => f === e.target.value) ?? 'all')
            }
          >
            <option value="all">all</option>
            <option value="connected">connected</option>
            <option value="gone">gone (not connected)</option>
          </select>
        </label>
        {showHelp && <ShortcutHelp />}
        <RuleSuggestions />
        <BatchBar
          selected={selected}
          onDecided={afterDecision}
          onClear={() => setChecked(new Set())}
        />
        {!queue.loaded ? (
          <p className="empty">Loading…</p>
        ) : queue.error ? (
          <p className="error" role="alert">
            Could not load the queue: {queue.error}
          </p>
        ) : requests.length === 0 && queue.requests.length > 0 ? (
          <p className="empty" data-testid="pending-filter-empty">
            No loaded request matches this filter
            {queue.unloaded > 0 ? `; ${queue.unloaded.toLocaleString()} more wait unloaded` : ''}.
          </p>
        ) : (
          <PendingList
            requests={requests}
            currentId={currentId}
            checked={checked}
            now={now}
            onOpen={onSelect}
            onToggle={toggle}
            unloaded={queue.unloaded}
            {...(queue.loadMore ? { onLoadMore: queue.loadMore } : {})}
          />
        )}
      </section>
      <section className="detail-pane" aria-label="Request">
        {current ? (
          <>
            <RequestDetail request={current} now={now} />
            <button
              type="button"
              className="button subtle"
              id="select-similar"
              data-testid="select-similar"
              onClick={() => selectSimilar(current)}
            >
              Select similar (
              {requests.filter((r) => similarityKey(r) === similarityKey(current)).length})
            </button>
            <DecisionPanel
              key={current.requestId}
              keys={panel}
              request={current}
              onDecided={(r) => afterDecision([r])}
            />
          </>
        ) : selectedId ? (
          <DecidedRequest requestId={selectedId} now={now} />
        ) : (
          <p className="empty">Select a request to see its details.</p>
        )}
      </section>
    </div>
  );
}

/** A request opened by link (`#request=<id>`) that is no longer in the queue. */
function DecidedRequest({ requestId, now }: { requestId: string; now: number }) {
  const api = useApi();
  const [state, setState] = useState<{ id: string; request?: RequestRecord; error?: string }>();
  useEffect(() => {
    let current = true;
    api.getRequest(requestId).then(
      ({ request }) => current && setState({ id: requestId, request }),
      (error: unknown) => current && setState({ id: requestId, error: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [api, requestId]);
  if (state?.id !== requestId) return <p className="empty">Loading…</p>;
  if (state.error || !state.request) {
    return (
      <p className="error" role="alert" data-testid="request-error">
        Request {requestId}: {state.error}
      </p>
    );
  }
  return <RequestDetail request={state.request} now={now} />;
}
