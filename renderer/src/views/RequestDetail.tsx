import type { RequestRecord } from '../../../shared/domain';
import { formatAge, formatTime } from '../util/format';
import { ContextFacts } from './ContextFacts';
import { InferredUrgencyTag } from './InferredUrgency';
import { RequestPictureView } from './RequestPicture';

/** Everything the agent said about one request, and why Gatehouse brought it to a human. */
export function RequestDetail({ request, now }: { request: RequestRecord; now: number }) {
  return (
    <article
      className="request-detail"
      aria-labelledby="detail-title"
      data-testid="request-detail"
      data-request-id={request.requestId}
    >
      <header>
        <h2 id="detail-title">{request.description}</h2>
        <p className="detail-tags">
          <span className={`urgency urgency-${request.urgency}`} data-testid="detail-urgency">
            {request.urgency}
          </span>
          <InferredUrgencyTag request={request} now={now} />
          {request.risk && (
            <span className={`urgency risk-${request.risk}`} data-testid="detail-risk">
              risk: {request.risk}
            </span>
          )}
          <span className={`status status-${request.status}`} data-testid="detail-status">
            {request.status.replace('_', ' ')}
          </span>
          <span>
            <strong>{request.agent}</strong> wants to <code>{request.action}</code>
            {request.target ? (
              <>
                {' '}
                on <code>{request.target}</code>
              </>
            ) : null}
          </span>
        </p>
      </header>
      <dl className="facts">
        {request.rationale && (
          <>
            <dt>Why</dt>
            <dd data-testid="detail-rationale">{request.rationale}</dd>
          </>
        )}
        {request.command && (
          <>
            <dt>Command</dt>
            <dd>
              <pre className="code" data-testid="detail-command">
                {request.command}
              </pre>
            </dd>
          </>
        )}
        {request.paths && request.paths.length > 0 && (
          <>
            <dt>Files</dt>
            <dd>
              <ul className="paths" data-testid="detail-paths">
                {request.paths.map((p) => (
                  <li key={p}>
                    <code>{p}</code>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        <dt>Sent here by</dt>
        <dd data-testid="detail-rule">
          <code>{request.rule}</code> — {request.ruleReason}
        </dd>
        <dt>Project</dt>
        <dd>{request.project ?? '—'}</dd>
        <dt>Asked</dt>
        <dd>
          <time dateTime={request.createdAt}>{formatTime(request.createdAt)}</time> (
          {formatAge(request.createdAt, now)} ago)
          {request.timeoutAt && request.status === 'pending' && (
            <> · agent waits until {formatTime(request.timeoutAt)}</>
          )}
        </dd>
        <dt>Session</dt>
        <dd>
          <a href={`#session=${encodeURIComponent(request.sessionId)}`}>{request.sessionId}</a>
        </dd>
        {request.decidedAt && (
          <>
            <dt>Decided</dt>
            <dd data-testid="detail-decision">
              {formatTime(request.decidedAt)} by {request.decidedBy ?? '—'}
              {request.scope ? ` (${request.scope})` : ''}
              {request.decidedVia ? ` via ${request.decidedVia}` : ''}
              {request.reason ? ` — ${request.reason}` : ''}
              {request.message ? ` — ${request.message}` : ''}
              {request.conditions?.length ? ` — conditions: ${request.conditions.join('; ')}` : ''}
            </dd>
          </>
        )}
        {request.context && Object.keys(request.context).length > 0 && (
          <>
            <dt>Context</dt>
            <dd>
              <ContextFacts context={request.context} />
            </dd>
          </>
        )}
      </dl>
      <RequestPictureView requestId={request.requestId} />
    </article>
  );
}
