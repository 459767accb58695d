import type { GatehouseEvent } from '../../../shared/events';
import type {
  CommandPart,
  FileChangePicture,
  PushPicture,
  RequestPicture,
} from '../../../shared/request-picture/picture-schema';
import { useApi } from '../api-context';
import { useLiveQuery } from '../state/use-query';

/**
 * What a request carries beyond its line: the diff of each file it writes, the commits a
 * push sends, the command breakdown. Loaded with the request (`request.get`) and again when
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
  return <PictureParts picture={picture} />;
}

function PictureParts({ picture }: { picture: RequestPicture }) {
  return (
    <section className="request-picture" data-testid="request-picture" aria-label="What it changes">
      {picture.push && <PushView push={picture.push} />}
      {picture.files?.map((f) => (
        <FileView key={f.path} file={f} />
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
        <code>{file.path}</code> {file.kind === 'create' && <span className="tag">new</span>}{' '}
        <span className="diffstat">
          <span className="added">+{file.added}</span>{' '}
          <span className="removed">−{file.removed}</span>
        </span>
      </h3>
      {file.diff && <DiffView diff={file.diff} />}
      {file.omitted && <p className="picture-omitted">Left out: {file.omitted}</p>}
    </div>
  );
}

/** A unified diff, each line marked by what it does (added, removed, hunk header, context). */
function DiffView({ diff }: { diff: string }) {
  return (
    <pre className="diff" data-testid="picture-diff">
      {diff.split('\n').map((line, i) => {
        const kind = line.startsWith('@@')
          ? 'hunk'
          : line.startsWith('+++') || line.startsWith('---')
            ? 'file'
            : line.startsWith('+')
              ? 'add'
              : line.startsWith('-')
                ? 'del'
                : 'ctx';
        return (
          <span key={i} className={`diff-line diff-${kind}`}>
            {line}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}

function PushView({ push }: { push: PushPicture }) {
  return (
    <div className="picture-push" data-testid="picture-push">
      <h3>
        Push <code>{push.branch ?? '(no branch)'}</code> to <code>{push.remote}</code>
        {push.url && <span className="push-url"> {push.url}</span>}{' '}
        {push.force && <span className="tag tag-danger">force</span>}
      </h3>
      <p>
        {push.commitCount} commit{push.commitCount === 1 ? '' : 's'} the remote lacks
      </p>
      <ol className="commits" data-testid="picture-commits">
        {push.commits.map((c) => (
          <li key={c.sha}>
            <code>{c.sha.slice(0, 10)}</code> {c.subject}{' '}
            <span className="author">({c.author})</span>
          </li>
        ))}
      </ol>
      {push.diffstat && <pre className="diffstat-block">{push.diffstat}</pre>}
      {push.omitted && <p className="picture-omitted">Left out: {push.omitted}</p>}
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
            <strong>{c.tier === 'ask' ? 'asks' : 'auto'}</strong> <code>{c.action}</code>
            {c.target ? (
              <>
                {' '}
                → <code>{c.target}</code>
              </>
            ) : null}{' '}
            <span className="rule">({c.rule})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
