import type { RequestRecord } from '../../../shared/domain';
import { formatAge, formatTime } from '../util/format';
import { ContextFacts } from './ContextFacts';
import { InferredUrgencyTag } from './InferredUrgency';
import { RequestPictureView } from './RequestPicture';
import { AgentText } from '../components/agent-text';

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
        <h2 id="detail-title">
          <AgentText text={request.description} />
        </h2>
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
            <strong>
              <AgentText text={request.agent} />
            </strong>{' '}
            wants to{' '}
            <code>
              <AgentText text={request.action} />
            </code>
            {request.target ? (
              <>
                {' '}
                on{' '}
                <code>
                  <AgentText text={request.target} testId="detail-target" />
                </code>
              </>
            ) : null}
          </span>
        </p>
      </header>
      <dl className="facts">
        {request.rationale && (
          <>
            <dt>Why</dt>
            <dd data-testid="detail-rationale">
              <AgentText text={request.rationale} />
            </dd>
          </>
        )}
        {request.command && (
          <>
            <dt>Command</dt>
            <dd>
              <pre className="code" data-testid="detail-command">
                <AgentText text={request.command} />
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
                    <code>
                      <AgentText text={p} />
                    </code>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        <dt>Sent here by</dt>
        <dd data-testid="detail-rule">
          <code>
            <AgentText text={request.rule} />
          </code>{' '}
          — <AgentText text={request.ruleReason} />
        </dd>
        <dt>Project</dt>
        <dd>{request.project ? <AgentText text={request.project} /> : '—'}</dd>
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
          <a href={`#session=${encodeURIComponent(request.sessionId)}`}>
            <AgentText text={request.sessionId} />
          </a>
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
