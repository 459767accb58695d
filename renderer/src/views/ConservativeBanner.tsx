import { useState } from 'react';
import type { BreakerRow } from '../../../shared/protocol/guard-methods';
import { useApi } from '../api-context';
import { useNotify } from '../components/notice';
import { useLiveQuery } from '../state/use-query';
import { errorText } from '../util/format';
import { AgentText } from '../components/agent-text';

/** The conservative-mode facts the banner shows: which session, why, and what is restricted. */
interface ConservativeSession {
  sessionId: string;
  agent?: string | undefined;
  reason?: string | undefined;
  restrictions?: BreakerRow['restrictions'] | undefined;
}

const sessionOf = (row: BreakerRow): string => row.name.slice('safety_switch:'.length);

/**
 * The safety switch, surfaced (seed 004): one banner per session in conservative mode, with
 * the reason, what is restricted (cheaper model, fewer tokens, blocked operations) and "Try
 * again" (manual recovery) with its result. It follows `mode.changed` events, so an automatic
 * recovery clears it without a reload.
 */
export function ConservativeBanner() {
  const api = useApi();
  const query = useLiveQuery(
    async () => {
      const [{ breakers }, { sessions }] = await Promise.all([
        api.listBreakers(),
        api.listSessions({ status: 'active', limit: 500 }),
      ]);
      const agents = new Map(sessions.map((s) => [s.sessionId, s.agent]));
      const conservative: ConservativeSession[] = breakers
        .filter((b) => b.kind === 'safety_switch' && b.state === 'open')
        .map((b) => {
          const sessionId = sessionOf(b);
          return {
            sessionId,
            agent: agents.get(sessionId),
            reason: b.reason,
            restrictions: b.restrictions,
          };
        });
      return { conservative };
    },
    [api],
    (e) => e.type === 'mode.changed' || e.type === 'guard.tripped' || e.type === 'session.ended',
  );
  const data = query.data;
  if (!data || data.conservative.length === 0) return null;
  return (
    <section className="conservative-banners" aria-label="Sessions in conservative mode">
      {data.conservative.map((s) => (
        <SessionBanner key={s.sessionId} session={s} onChanged={query.reload} />
      ))}
    </section>
  );
}

function SessionBanner({
  session,
  onChanged,
}: {
  session: ConservativeSession;
  onChanged: () => void;
}) {
  const api = useApi();
  const notify = useNotify();
  const [result, setResult] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const tryAgain = async (): Promise<void> => {
    setBusy(true);
    try {
      const r = await api.recoverSession(session.sessionId);
      if (r.recovered) {
        // The banner goes away with the mode; the result stays as a notice.
        notify('info', `${session.agent ?? 'The agent'} is back to normal mode`);
        onChanged();
      } else {
        setResult({ ok: false, text: `Still conservative: ${r.reason ?? 'the guard refused'}.` });
      }
    } catch (error) {
      setResult({ ok: false, text: `Could not try again: ${errorText(error)}` });
    } finally {
      setBusy(false);
    }
  };
  const r = session.restrictions;
  const restricted = r
    ? [
        `model: ${r.model ?? 'a cheaper model'}`,
        `at most ${r.maxTokens} tokens per call`,
        'no streaming',
        r.blockedOperations.length
          ? `blocked: ${r.blockedOperations.join(', ')}`
          : 'no operations blocked',
      ]
    : ['as the daemon reports it'];
  return (
    <div
      className="banner banner-warn"
      role="status"
      data-testid="conservative-banner"
      data-session-id={session.sessionId}
    >
      <p className="banner-title">
        <strong>{session.agent ? <AgentText text={session.agent} /> : 'An agent'}</strong> is in
        conservative mode
        {session.reason ? (
          <>
            {' '}
            (<AgentText text={session.reason} />)
          </>
        ) : (
          ''
        )}
        .
      </p>
      <p className="banner-detail" data-testid="conservative-restrictions">
        Restricted: {restricted.join(' · ')}. It recovers by itself after a success while enough
        budget is left.
      </p>
      <div className="banner-actions">
        <button
          type="button"
          id={`conservative-retry-${session.sessionId}`}
          data-testid="conservative-retry"
          className="button"
          disabled={busy}
          onClick={() => void tryAgain()}
        >
          Try again
        </button>
        {result && (
          <span
            className={result.ok ? 'banner-result ok' : 'banner-result error'}
            data-testid="conservative-result"
            role="alert"
          >
            {result.text}
          </span>
        )}
      </div>
    </div>
  );
}
