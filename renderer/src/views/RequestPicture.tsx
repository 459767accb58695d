import type { GatehouseEvent } from '../../../shared/events';
import { useEffect, useState } from 'react';
import type {
  AppliedFilePicture,
  CommandPart,
  FileChangePicture,
  MessagePicture,
  PushPicture,
  RequestPicture,
} from '../../../shared/request-picture/picture-schema';
import type { AdminResult } from '../../../shared/protocol/method-map';
import { useApi } from '../api-context';
import { useLiveQuery } from '../state/use-query';
import { hasSystemModifier, isTyping } from '../util/keys';
import { DiffView } from './PictureDiff';
import { AgentText } from '../components/agent-text';

/**
 * What a request carries beyond its line: the message it sends, the diff of each file it
 * writes, the commits a push sends (and its full diff on `v`), the files a command applies,
 * the command breakdown. Loaded with the request (`request.get`) and again when
 * its picture is stored (`request.picture`), since it is computed after the request is filed.
 */
export function RequestPictureView({ requestId }: { requestId: string }) {
  const api = useApi();
  const query = useLiveQuery(
    () => api.getRequest(requestId),
    [api, requestId],
    (e: GatehouseEvent) => e.type === 'request.picture' && e.requestId === requestId,
  );
  const picture = query.data?.request.picture;
  if (!picture) return null;
  return <PictureParts picture={picture} requestId={requestId} />;
}

/**
 * The picture's parts. Without a `requestId` (the team dashboard, which has no daemon to ask)
 * a push has no full-diff button.
 */
export function PictureParts({
  picture,
  requestId,
}: {
  picture: RequestPicture;
  requestId?: string | undefined;
}) {
  return (
    <section className="request-picture" data-testid="request-picture" aria-label="What it changes">
      {picture.message && <MessageView message={picture.message} />}
      {picture.push && <PushView push={picture.push} requestId={requestId} />}
      {picture.files?.map((f) => (
        <FileView key={f.path} file={f} />
      ))}
      {picture.applied?.map((a, i) => (
        <AppliedView key={`${a.path}-${i}`} applied={a} />
      ))}
      {picture.commands && picture.commands.length > 1 && <CommandsView parts={picture.commands} />}
      {picture.omitted?.map((o) => (
        <p key={o} className="picture-omitted">
          Left out: {o}
        </p>
      ))}
    </section>
  );
}

function FileView({ file }: { file: FileChangePicture }) {
  return (
    <div className="picture-file" data-testid="picture-file">
      <h3>
        <code>
          <AgentText text={file.path} />
        </code>{' '}
        {file.kind === 'create' && <span className="tag">new</span>}{' '}
        <span className="diffstat">
          <span className="added">+{file.added}</span>{' '}
          <span className="removed">−{file.removed}</span>
        </span>
      </h3>
      {file.diff && <DiffView diff={file.diff} path={file.path} />}
      {file.omitted && <p className="picture-omitted">Left out: {file.omitted}</p>}
    </div>
  );
}

function PushView({ push, requestId }: { push: PushPicture; requestId?: string | undefined }) {
  return (
    <div className="picture-push" data-testid="picture-push">
      <h3>
        Push{' '}
        <code>
          <AgentText text={push.branch ?? '(no branch)'} />
        </code>{' '}
        to{' '}
        <code>
          <AgentText text={push.remote} />
        </code>
        {push.url && (
          <span className="push-url">
            {' '}
            <AgentText text={push.url} />
          </span>
        )}{' '}
        {push.force && <span className="tag tag-danger">force</span>}
      </h3>
      <p>
        {push.commitCount} commit{push.commitCount === 1 ? '' : 's'} the remote lacks
      </p>
      <ol className="commits" data-testid="picture-commits">
        {push.commits.map((c) => (
          <li key={c.sha}>
            <code>{c.sha.slice(0, 10)}</code> <AgentText text={c.subject} />{' '}
            <span className="author">
              (<AgentText text={c.author} />)
            </span>
          </li>
        ))}
      </ol>
      {push.diffstat && (
        <pre className="diffstat-block">
          <AgentText text={push.diffstat} />
        </pre>
      )}
      {push.omitted && <p className="picture-omitted">Left out: {push.omitted}</p>}
      {push.commitCount > 0 && requestId !== undefined && <FullDiff requestId={requestId} />}
    </div>
  );
}

type FullDiffResult = AdminResult<'request.diff'>;

/**
 * The full diff of a push, one click (or `v`) away: computed by the daemon when asked
 * (`request.diff`), with the same read-only git as the picture.
 */
function FullDiff({ requestId }: { requestId: string }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<FullDiffResult | { error: string }>();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'v' || hasSystemModifier(e) || isTyping(e.target)) return;
      e.preventDefault();
      setOpen((v) => !v);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (!open || result) return;
    api
      .getRequestDiff(requestId)
      .then(setResult, (e: unknown) =>
        setResult({ error: e instanceof Error ? e.message : String(e) }),
      );
  }, [api, open, requestId, result]);
  return (
    <div className="full-diff">
      <button
        type="button"
        className="button subtle"
        data-testid="full-diff-toggle"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
      >
        {open ? 'Hide the full diff' : 'View the full diff'} <kbd>v</kbd>
      </button>
      {open && !result && <p className="muted">Reading the diff…</p>}
      {open && result && 'error' in result && (
        <p className="picture-omitted">The diff could not be read: {result.error}</p>
      )}
      {open && result && !('error' in result) && (
        <>
          {result.diff !== undefined && <DiffView diff={result.diff} testId="full-diff" />}
          {result.omitted && <p className="picture-omitted">Left out: {result.omitted}</p>}
        </>
      )}
    </div>
  );
}

/** A file a command applies: its content as the command will read it (secrets masked). */
function AppliedView({ applied }: { applied: AppliedFilePicture }) {
  return (
    <div className="picture-applied" data-testid="picture-applied">
      <h3>
        Applies{' '}
        <code>
          <AgentText text={applied.path} />
        </code>{' '}
        <span className="tag">{applied.by}</span>
      </h3>
      {applied.content !== undefined && (
        <pre className="applied-content">
          <AgentText text={applied.content} />
        </pre>
      )}
      {applied.omitted && <p className="picture-omitted">Left out: {applied.omitted}</p>}
    </div>
  );
}

const MESSAGE_KIND: Record<MessagePicture['kind'], string> = {
  email: 'Email',
  chat: 'Chat message',
  comment: 'Comment',
  issue: 'New issue or pull request',
};

/** What an action would send to people: recipients, subject or place, and the body's start. */
function MessageView({ message }: { message: MessagePicture }) {
  const rows: [string, string][] = [];
  if (message.to) rows.push(['To', message.to.join(', ')]);
  if (message.cc) rows.push(['Cc', message.cc.join(', ')]);
  if (message.bcc) rows.push(['Bcc', message.bcc.join(', ')]);
  if (message.channel) rows.push([message.kind === 'chat' ? 'Channel' : 'On', message.channel]);
  if (message.subject !== undefined) rows.push(['Subject', message.subject]);
  return (
    <div className="picture-message" data-testid="picture-message">
      <h3>{MESSAGE_KIND[message.kind]} it would send</h3>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{k}</dt>
            <dd>
              <AgentText text={v} />
            </dd>
          </div>
        ))}
      </dl>
      {message.body !== undefined && (
        <pre className="message-body" data-testid="picture-message-body">
          <AgentText text={message.body} />
        </pre>
      )}
      {message.omitted && <p className="picture-omitted">Left out: {message.omitted}</p>}
    </div>
  );
}

function CommandsView({ parts }: { parts: CommandPart[] }) {
  return (
    <div className="picture-commands" data-testid="picture-commands">
      <h3>What the call does</h3>
      <ul>
        {parts.map((c, i) => (
          <li key={i} className={c.tier === 'ask' ? 'asks' : 'auto'}>
            <strong>{c.tier === 'ask' ? 'asks' : 'auto'}</strong>{' '}
            <code>
              <AgentText text={c.action} />
            </code>
            {c.target ? (
              <>
                {' '}
                →{' '}
                <code>
                  <AgentText text={c.target} />
                </code>
              </>
            ) : null}{' '}
            <span className="rule">
              (<AgentText text={c.rule} />)
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
