import { useState } from 'react';
import type { DecisionScope } from '../../../shared/domain';
import {
  roleAtLeast,
  type HubRequestFilter,
  type HubRequestView,
} from '../../../shared/protocol/hub-web-methods';
import type { PersonRole } from '../../../shared/hub-protocol';
import { useNotify } from '../components/notice';
import { formatAge, formatTime, projectName } from '../util/format';
import type { HubClient } from './hub-client';
import { useHubPoll } from './use-hub-poll';
import { useNow } from '../util/use-now';
import { PictureParts } from '../views/RequestPicture';
import { HubDecidePanel } from './HubDecidePanel';
import { HubUrgencyCell } from './HubUrgencyCell';
import type { DashboardTerms } from './hub-approval-terms';
import { AgentText } from '../components/agent-text';
import { visibleText } from '../../../shared/visible-text';

interface Props {
  client: HubClient;
  role: PersonRole;
  /** `waiting`: the team's pending gates; `decided`: the history. */
  state: 'waiting' | 'decided';
}

const keyOf = (r: HubRequestView) => `${r.machine}/${r.requestId}`;

/**
 * The team's requests across machines, with a machine column and filters (machine, project,
 * agent, urgency, blocked), the waiting ones in the order of the machine's queue (the urgency
 * inferred as there). An approver or admin decides the open one (HubDecidePanel.tsx); a
 * viewer sees the same, read-only.
 */
export function HubRequests({ client, role, state }: Props) {
  const [filter, setFilter] = useState<HubRequestFilter>({});
  const [openKey, setOpenKey] = useState<string | undefined>(undefined);
  const query = { ...filter, state };
  const { data, error, reload } = useHubPoll(
    () => client.call('requests.list', query),
    JSON.stringify(query),
  );
  const requests = data?.requests ?? [];
  const open = requests.find((r) => keyOf(r) === openKey);
  const machines = [...new Set(requests.map((r) => r.machine))].sort();
  const set = (patch: Partial<HubRequestFilter>) => {
    const next: Record<string, unknown> = { ...filter, ...patch };
    for (const k of Object.keys(next)) if (next[k] === '' || next[k] === false) delete next[k];
    setFilter(next as HubRequestFilter);
  };
  const now = useNow(10_000);
  return (
    <div className="pending-view hub-requests" data-testid={`hub-${state}`}>
      <section className="queue-pane">
        <form className="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
          <label>
            Machine{' '}
            <select
              data-testid="hub-filter-machine"
              value={filter.machine ?? ''}
              onChange={(e) => set({ machine: e.target.value })}
            >
              <option value="">all</option>
              {[...new Set([...machines, ...(filter.machine ? [filter.machine] : [])])].map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label>
            Project{' '}
            <input
              data-testid="hub-filter-project"
              value={filter.project ?? ''}
              onChange={(e) => set({ project: e.target.value })}
            />
          </label>
          <label>
            Agent{' '}
            <input
              data-testid="hub-filter-agent"
              value={filter.agent ?? ''}
              onChange={(e) => set({ agent: e.target.value })}
            />
          </label>
          <label>
            Urgency{' '}
            <select
              data-testid="hub-filter-urgency"
              value={filter.urgency ?? ''}
              onChange={(e) =>
                set({ urgency: (e.target.value || undefined) as HubRequestFilter['urgency'] })
              }
            >
              <option value="">any</option>
              <option value="normal">normal or higher</option>
              <option value="high">high</option>
            </select>
          </label>
          {state === 'waiting' && (
            <label className="inline">
              <input
                type="checkbox"
                data-testid="hub-filter-blocked"
                checked={filter.blocked ?? false}
                onChange={(e) => set({ blocked: e.target.checked })}
              />{' '}
              agent blocked
            </label>
          )}
        </form>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {requests.length === 0 ? (
          <p className="empty" data-testid="hub-empty">
            {state === 'waiting'
              ? 'Nothing is waiting on any machine.'
              : 'No decided requests yet.'}
          </p>
        ) : (
          <table className="table" data-testid="hub-request-table">
            <thead>
              <tr>
                <th>Machine</th>
                <th>Request</th>
                <th>Agent</th>
                <th>Project</th>
                <th>Urgency</th>
                <th>Status</th>
                <th>Age</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr
                  key={keyOf(r)}
                  data-testid="hub-request"
                  data-request-id={r.requestId}
                  data-machine={r.machine}
                  data-status={r.status}
                  className={keyOf(r) === openKey ? 'current' : undefined}
                >
                  <td>
                    <AgentText text={r.machine} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="hub-open"
                      data-testid="hub-request-open"
                      onClick={() => setOpenKey(keyOf(r))}
                    >
                      <AgentText text={r.record.description} />
                    </button>
                  </td>
                  <td>
                    <AgentText text={r.record.agent} />
                  </td>
                  <td title={r.record.project && visibleText(r.record.project)}>
                    <AgentText text={projectName(r.record.project)} />
                  </td>
                  <HubUrgencyCell record={r.record} now={now} />
                  <td className={`status status-${r.status}`}>
                    {r.status}
                    {r.record.decidedVia ? ` via ${r.record.decidedVia}` : ''}
                  </td>
                  <td>{formatAge(r.record.createdAt, now)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {open && <HubRequestDetail client={client} role={role} request={open} onDecided={reload} />}
    </div>
  );
}

function HubRequestDetail({
  client,
  role,
  request,
  onDecided,
}: {
  client: HubClient;
  role: PersonRole;
  request: HubRequestView;
  onDecided: () => void;
}) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const r = request.record;
  const waiting = request.status === 'pending' || request.status === 'timed_out';
  const team = request.team;
  const canDecide =
    roleAtLeast(role, 'approver') && waiting && !request.hubDecision && team?.mayDecide !== false;
  const decide = async (
    decision: 'approve' | 'deny',
    scope: DecisionScope,
    o: { reason?: string; terms?: DashboardTerms },
  ) => {
    setBusy(true);
    try {
      const vote = await client.call('decide', {
        machine: request.machine,
        requestId: request.requestId,
        decision,
        scope,
        ...o,
      });
      notify(
        'info',
        vote.decided
          ? `${decision === 'approve' ? 'Approved' : 'Denied'} on ${request.machine}; the machine applies it`
          : `Your approval counted: ${vote.approvals} of ${vote.needed} approvals`,
      );
      onDecided();
    } catch (error) {
      notify('error', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="detail-pane request-detail" data-testid="hub-request-detail">
      <h2 className="request-title">
        <AgentText text={r.description} testId="hub-detail-description" />
      </h2>
      <dl className="facts">
        <dt>Machine</dt>
        <dd data-testid="hub-detail-machine">
          <AgentText text={request.machine} />
        </dd>
        <dt>Agent</dt>
        <dd>
          <AgentText text={r.agent} />
        </dd>
        <dt>Project</dt>
        <dd>{r.project ? <AgentText text={r.project} /> : '—'}</dd>
        <dt>Action</dt>
        <dd>
          <AgentText text={r.action} />
        </dd>
        {r.command && (
          <>
            <dt>Command</dt>
            <dd>
              <code className="code" data-testid="hub-detail-command">
                <AgentText text={r.command} />
              </code>
            </dd>
          </>
        )}
        {r.paths && r.paths.length > 0 && (
          <>
            <dt>Files</dt>
            <dd className="paths">
              <AgentText text={r.paths.join(', ')} />
            </dd>
          </>
        )}
        {r.rationale && (
          <>
            <dt>Why</dt>
            <dd>
              <AgentText text={r.rationale} />
            </dd>
          </>
        )}
        <dt>Rule</dt>
        <dd>
          <AgentText text={r.rule} />: <AgentText text={r.ruleReason} />
        </dd>
        {r.risk && (
          <>
            <dt>Risk</dt>
            <dd className={`risk-${r.risk}`}>{r.risk}</dd>
          </>
        )}
        <dt>Asked</dt>
        <dd>{formatTime(r.createdAt)}</dd>
        <dt>Status</dt>
        <dd data-testid="hub-detail-status">
          {request.status}
          {r.decidedVia ? ` via ${r.decidedVia}` : ''}
          {request.hubDecision ? ` (decided on the hub by ${request.hubDecision.person})` : ''}
        </dd>
      </dl>
      {team && (
        <p className="hint" data-testid="hub-team-rule">
          Team rule {team.rule}: {team.text}. {team.approvals} of {team.needed} approvals so far.
        </p>
      )}
      {r.picture && <PictureParts picture={r.picture} />}
      {canDecide ? (
        <HubDecidePanel
          request={request}
          busy={busy}
          onDecide={(d, scope, o) => void decide(d, scope, o)}
        />
      ) : (
        waiting &&
        (!roleAtLeast(role, 'approver') ? (
          <p className="muted" data-testid="hub-read-only">
            You are a viewer on this hub: you can see requests but not decide them.
          </p>
        ) : (
          team?.why &&
          !request.hubDecision && (
            <p className="muted" data-testid="hub-read-only">
              Read-only: {team.why}.
            </p>
          )
        ))
      )}
    </section>
  );
}
