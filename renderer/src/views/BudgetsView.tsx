import { useState } from 'react';
import { useApi } from '../api-context';
import { TableHead } from '../components/fields';
import { useNotify } from '../components/notice';
import type { BreakerTrip } from '../../../shared/protocol/guard-methods';
import { loadBreakers, loadSpend } from '../state/guards-source';
import { useLiveQuery } from '../state/use-query';
import { errorText, formatTime, formatUsd } from '../util/format';
import { SpendChart } from './SpendChart';
import { AgentText } from '../components/agent-text';

const round = (v: number) => Math.round(v * 1000) / 1000;
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** Spend against budgets, per day and per model, and the state of every breaker. */
export function BudgetsView() {
  const api = useApi();
  const notify = useNotify();
  const [resetting, setResetting] = useState<string>();
  const spend = useLiveQuery(
    () => loadSpend(api, Date.now()),
    [api],
    (e) => e.type === 'session.ended' || e.type.startsWith('guard.'),
  );
  const breakers = useLiveQuery(
    () => loadBreakers(api),
    [api],
    (e) => e.type.startsWith('guard.'),
  );
  const settings = useLiveQuery(
    () => api.getSettings(),
    [api],
    (e) => e.type === 'settings.changed',
  );
  const budgets = (settings.data?.settings.budgets ?? {}) as Record<string, unknown>;
  const perDay = num(budgets.perDayUsd);
  const reset = async (name: string) => {
    setResetting(name);
    try {
      const { reset: names } = await api.resetBreaker({ name });
      notify('info', `Reset ${names.join(', ') || name}`);
      breakers.reload();
    } catch (error) {
      notify('error', `Could not reset ${name}: ${errorText(error)}`);
    } finally {
      setResetting(undefined);
    }
  };
  const today = spend.data?.todayUsd ?? 0;

  return (
    <div className="budgets-view">
      <h2>Budgets &amp; breakers</h2>
      <section className="cards" aria-label="Budgets">
        <div className="card" data-testid="budget-today">
          <h3>Today</h3>
          <p className="big">{formatUsd(today)}</p>
          <p>
            {perDay
              ? `of ${formatUsd(perDay)} per day (${Math.round((today / perDay) * 100)} %)`
              : 'no daily budget'}
          </p>
          {perDay ? (
            <progress
              max={perDay}
              value={Math.min(today, perDay)}
              aria-label="Share of the daily budget spent today"
            />
          ) : null}
        </div>
        <div className="card">
          <h3>Per session</h3>
          <p className="big">
            {num(budgets.perSessionUsd) ? formatUsd(num(budgets.perSessionUsd)!) : '—'}
          </p>
          <p>budget of one agent session</p>
        </div>
        <div className="card">
          <h3>Per operation</h3>
          <p className="big">
            {num(budgets.perOperationUsd) ? formatUsd(num(budgets.perOperationUsd)!) : '—'}
          </p>
          <p>warning at {num(budgets.warnAtPct) ?? '—'} %</p>
        </div>
      </section>
      {spend.error && (
        <p className="error" role="alert">
          Spend is not available: {spend.error}
        </p>
      )}
      <div className="charts">
        <SpendChart
          title="Spend per day (last 14 days)"
          testId="chart-per-day"
          bars={(spend.data?.byDay ?? []).map((d) => ({ label: d.day.slice(5), value: d.usd }))}
          limit={perDay}
        />
        <SpendChart
          title="Spend per model"
          testId="chart-per-model"
          bars={(spend.data?.byModel ?? []).map((m) => ({ label: m.model, value: m.usd }))}
        />
      </div>
      <section aria-labelledby="breakers-title" className="panel">
        <h3 id="breakers-title">Breakers</h3>
        {breakers.error ? (
          <p className="error" role="alert" data-testid="breakers-error">
            Breakers are not available: {breakers.error}
          </p>
        ) : (
          <>
            <table className="table" data-testid="breakers-table">
              <thead>
                <tr>
                  <th scope="col">Breaker</th>
                  <th scope="col">State</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Current / threshold</th>
                  <th scope="col">Details</th>
                  <th scope="col">
                    <span className="visually-hidden">Reset</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {(breakers.data?.rows ?? []).map((b) => (
                  <tr
                    key={b.name}
                    data-testid="breaker-row"
                    data-state={b.state}
                    data-name={b.name}
                  >
                    <td>
                      <code>{b.name}</code>
                      {b.kind && <span className="muted"> · {b.kind}</span>}
                    </td>
                    <td>
                      <span className={`status status-${b.state}`}>
                        {b.state.replace('_', ' ')}
                      </span>
                    </td>
                    <td>{b.reason ?? '—'}</td>
                    <td>
                      {b.current !== undefined
                        ? `${round(b.current)} / ${b.threshold !== undefined ? round(b.threshold) : '—'}`
                        : '—'}
                    </td>
                    <td>
                      {b.detail ? <AgentText text={b.detail} /> : ''}
                      {b.retryInMs !== undefined && ` retry in ${Math.ceil(b.retryInMs / 1000)} s`}
                    </td>
                    <td>
                      {b.state !== 'closed' && (
                        <button
                          type="button"
                          className="button subtle"
                          data-testid="breaker-reset"
                          aria-label={`Reset breaker ${b.name}`}
                          disabled={resetting === b.name}
                          onClick={() => void reset(b.name)}
                        >
                          Reset
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {breakers.data && breakers.data.rows.length === 0 && (
              <p className="empty" data-testid="breakers-empty">
                {breakers.data.recentTrips.length
                  ? 'All breakers are closed now; the recent trips are below.'
                  : 'All breakers closed: nothing tripped in the last 24 hours.'}
              </p>
            )}
            {breakers.data && breakers.data.recentTrips.length > 0 && (
              <RecentTrips trips={breakers.data.recentTrips} />
            )}
          </>
        )}
      </section>
    </div>
  );
}

/** Trips of the last day, newest first: they stay in view after their breaker closed again. */
function RecentTrips({ trips }: { trips: BreakerTrip[] }) {
  return (
    <section aria-labelledby="recent-trips-title" data-testid="recent-trips">
      <h4 id="recent-trips-title">Recent trips (last 24 hours)</h4>
      <table className="table compact" aria-label="Recent trips">
        <TableHead columns={['When', 'Breaker', 'Why', 'Agent']} />
        <tbody>
          {trips.map((t, i) => (
            <tr
              key={`${t.at}-${t.breaker}-${i}`}
              data-testid="recent-trip"
              data-breaker={t.breaker}
            >
              <td>{formatTime(t.at)}</td>
              <td>{t.breaker}</td>
              <td>
                {t.reason ?? '—'}
                {t.current !== undefined && ` (${t.current} of ${t.threshold ?? '?'})`}
                {t.suggestion && <span className="muted"> — {t.suggestion}</span>}
              </td>
              <td>{t.agent ? <AgentText text={t.agent} /> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
