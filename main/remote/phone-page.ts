import type { RequestPicture } from '../../shared/request-picture/picture-schema';
import { commandOnOneLine } from '../../shared/command-one-line';
import type { InferredUrgency } from '../../shared/request-picture/inferred-urgency';
import { highlightLine } from '../../shared/syntax/highlight-line';
import { formatLocalTime, localZoneName } from '../../shared/time-format';
import type { RequestRecord } from '../../shared/domain';
import { decidedByOf, provenanceOfRequest } from '../../shared/provenance';
import { agentPresence } from '../../shared/agent-presence';
import type { LinkDecision } from '../../shared/remote';
import type { LinkRefusal, LinkView } from './link-decider';
import { MASK_MARK, maskSecrets } from '../../shared/request-picture/mask-secrets';
import type { PhoneEdit } from './phone-edit';
import {
  hiddenCharactersIn,
  holdsHiddenCharacters,
  visibleText,
  visibleTextParts,
} from '../../shared/visible-text';

/**
 * The decision link's page: server-rendered HTML and one small stylesheet, no script, no
 * dashboard bundle. Mobile first (one column, large buttons), readable at 375 px. Every value
 * from a request is escaped, and each character in it that a browser would act on instead of
 * showing (a bidirectional override, a zero-width space, a control: shared/visible-text.ts)
 * is shown as a marked `U+202E` chip; the page loads nothing from elsewhere (see PHONE_CSP).
 */

/**
 * The pages' Content-Security-Policy: nothing runs, the stylesheet comes from here, and the
 * form may post only back to this origin.
 */
export const PHONE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PHONE_CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f5f7}
main{max-width:40rem;margin:0 auto;padding:16px}
h1{font-size:1.25rem;margin:.25rem 0 .5rem;overflow-wrap:anywhere}
.open h1{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
.gist{margin:0 0 8px;color:#57606a;font-size:.9rem;overflow-wrap:anywhere;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.decide textarea{min-height:2.6rem}
.brand{font-size:.8rem;color:#57606a;text-transform:uppercase;letter-spacing:.06em}
.card{background:#fff;border:1px solid #d0d7de;border-radius:10px;padding:14px;margin:12px 0}
dl{margin:0;display:grid;grid-template-columns:1fr;gap:2px 12px}
dt{font-size:.78rem;color:#57606a;margin-top:8px}
dd{margin:0;overflow-wrap:anywhere}
code,pre{font:14px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;border-radius:6px;padding:8px;margin:2px 0 0}
ul{margin:2px 0 0;padding-left:1.2rem}
.urgency-high{color:#b42318;font-weight:600}
.waiting{background:#fff8c5;border-color:#d4a72c}
.buttons{display:grid;gap:10px}
button{font:inherit;font-weight:600;padding:14px;border-radius:10px;border:1px solid transparent;width:100%;cursor:pointer}
.approve{background:#1f883d;color:#fff}
.session{background:#fff;color:#1f883d;border-color:#1f883d}
.deny{background:#cf222e;color:#fff}
label{display:block;font-size:.85rem;color:#57606a;margin:4px 0}
textarea{width:100%;min-height:4.5rem;font:inherit;padding:8px;border:1px solid #d0d7de;border-radius:8px}
.result{font-size:1.1rem;font-weight:600}
.refused h1{color:#b42318}
.muted{color:#57606a;font-size:.85rem}
.diff .add{background:#e6ffec;color:#116329}.diff .del{background:#ffebe9;color:#82071e}.diff .hunk{color:#6e40c9}
.diff>span{display:block}
.diff .hljs-keyword{color:#cf222e}.diff .hljs-string,.diff .hljs-attr{color:#0a3069}.diff .hljs-comment{color:#6e7781;font-style:italic}
.diff .hljs-number,.diff .hljs-literal,.diff .hljs-built_in,.diff .hljs-variable{color:#0550ae}.diff .hljs-title,.diff .hljs-name{color:#8250df}.diff .hljs-type,.diff .hljs-meta,.diff .hljs-tag{color:#953800}.stat-add{color:#116329}.stat-del{color:#82071e}.force{color:#b42318;font-weight:600}
.edit summary{font-weight:600;cursor:pointer;padding:4px 0}
.edit textarea.code{font:14px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;min-height:8rem}
.edit .buttons{margin-top:10px}
.edit-error,.edit-riskier{color:#b42318;overflow-wrap:anywhere}
bdi{unicode-bidi:isolate}
.ctl{display:inline-block;unicode-bidi:isolate;direction:ltr;margin:0 1px;padding:0 3px;border:1px solid #cf222e;border-radius:3px;background:#ffebe9;color:#cf222e;font:600 .75em/1.3 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:nowrap}
@media (min-width:40rem){dl{grid-template-columns:9rem 1fr}dt{margin-top:6px}}
`;

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Tagged template: every interpolated value is escaped unless it is already `Html`. */
class Html {
  constructor(readonly text: string) {}
}
function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}
function render(v: unknown): string {
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === undefined || v === null || v === false) return '';
  return markedHtml(String(v));
}

/**
 * Text escaped, each hidden character a chip with its code point. The chip's markup has no
 * quote, so a value that ever stood in a quoted attribute would stay inside it as text.
 */
const markedHtml = (text: string): string =>
  visibleTextParts(text)
    .map((part) =>
      'text' in part ? escapeHtml(part.text) : `<span class=ctl>${part.hidden.code}</span>`,
    )
    .join('');

/**
 * Agent text set inline beside other text: isolated left-to-right, so a right-to-left letter
 * in it cannot reorder what stands around it (the agent's name beside its command).
 */
const agentText = (text: string): Html => html`<bdi dir="ltr">${text}</bdi>`;

/**
 * Whether the summary line (two lines on a phone) shows a command whole: short, on one line.
 * A longer one is shown whole above the buttons as well.
 */
const fitsGist = (command: string): boolean => command.length <= 60 && !command.includes('\n');

function page(title: string, body: Html, cssHref: string, className = ''): string {
  return `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(visibleText(title))}</title>
<link rel="stylesheet" href="${escapeHtml(cssHref)}">
<link rel="icon" href="${escapeHtml(cssHref.replace(/phone\.css$/, 'icon'))}">
</head>
<body><main class="${escapeHtml(className)}"><div class="brand">Gatehouse</div>${body.text}</main></body>
</html>`;
}

/**
 * The request as the page shows it: what the agent wrote in its words and command masked as a
 * diff is (a token in a command's header, a key in an `export`), since the page may be read
 * on a phone across a network; the input to edit is masked already (phone-edit.ts).
 */
function maskedForPhone(r: RequestRecord): RequestRecord {
  return {
    ...r,
    description: maskSecrets(r.description),
    ...(r.rationale !== undefined ? { rationale: maskSecrets(r.rationale) } : {}),
    ...(r.command !== undefined ? { command: maskSecrets(r.command, { shell: true }) } : {}),
    ...(r.target !== undefined ? { target: maskSecrets(r.target) } : {}),
  };
}

/** "3 min", "2 h 5 min", "40 s": how long ago. */
export function age(fromIso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(fromIso)) / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} days`;
}

/**
 * A time as every surface writes it, in the machine's (the person's) zone, named: the phone
 * reading it may be set to another zone.
 */
const at = (isoTime: string, now: number): string =>
  `${formatLocalTime(isoTime, now)} ${localZoneName(Date.parse(isoTime))}`;

function details(
  r: RequestRecord,
  now: number,
  agentWaiting?: boolean,
  inferred?: InferredUrgency,
): Html {
  const row = (label: string, value: Html | string | undefined, testid: string) =>
    value === undefined || value === ''
      ? ''
      : html`<dt>${label}</dt>
          <dd data-testid="${testid}">${value}</dd>`;
  return html`<section class="card" data-testid="phone-details">
      <dl>
        ${row('What', agentText(r.description), 'phone-what')}
        ${row('Why', r.rationale && agentText(r.rationale), 'phone-why')}
        ${row('Action', html`<code>${agentText(r.action)}</code>`, 'phone-action')}
        ${r.command ? row('Command', html`<pre dir="ltr">${r.command}</pre>`, 'phone-command') : ''}
        ${row('Target', r.target && agentText(r.target), 'phone-target')}
        ${
          r.paths?.length
            ? row(
                'Files',
                html`<ul>
                  ${r.paths.map((p) => html`<li><code>${agentText(p)}</code></li>`)}
                </ul>`,
                'phone-files',
              )
            : ''
        }
        ${row(
          'Agent',
          agentPresence(r) ? html`${agentText(r.agent)} (${agentPresence(r)})` : agentText(r.agent),
          'phone-agent',
        )}
        ${row('Project', r.project && agentText(r.project), 'phone-project')}
        ${row('Asked by', html`${agentText(r.rule)} — ${agentText(r.ruleReason)}`, 'phone-rule')}
        ${row(
          'Urgency',
          html`<span class="urgency-${r.urgency}">${r.urgency}</span
            >${r.risk ? `, risk ${r.risk}` : ''}${
              inferred
                ? html`<br /><span class="urgency-${inferred.urgency}" data-testid="phone-inferred"
                      >inferred ${inferred.urgency}: ${inferred.reasons.join('; ')}</span
                    >`
                : ''
            }`,
          'phone-urgency',
        )}
        ${row('Asked', `${age(r.createdAt, now)} ago (${at(r.createdAt, now)})`, 'phone-age')}
        ${row('Request', r.requestId, 'phone-request-id')}
      </dl>
    </section>
    ${
      agentWaiting === undefined
        ? ''
        : agentWaiting
          ? html`<p class="card waiting" data-testid="phone-waiting">
              An agent is blocked waiting for this
              answer${r.timeoutAt ? ` (until ${at(r.timeoutAt, now)})` : ''}.
            </p>`
          : html`<p class="card muted" data-testid="phone-waiting">
              ${
                r.status === 'timed_out'
                  ? 'The agent stopped waiting; approving leaves a one-time permission for this exact action.'
                  : 'No agent is blocked on this right now; it will learn the answer when it asks again.'
              }
            </p>`
    }`;
}

const BUTTONS: Record<LinkDecision, { label: string; className: string; testid: string }> = {
  approve: { label: 'Approve once', className: 'approve', testid: 'phone-approve' },
  approve_session: {
    label: 'Approve for this session',
    className: 'session',
    testid: 'phone-approve-session',
  },
  deny: { label: 'Deny', className: 'deny', testid: 'phone-deny' },
};

/** The request with its buttons (a GET of a working link). */
export function openPage(
  view: Extract<LinkView, { kind: 'open' }>,
  now: number,
  cssHref: string,
): string {
  const r = maskedForPhone(view.request);
  const approvals = view.decisions.filter((d) => d !== 'deny');
  // The decision first, so that its buttons are on the first screen of a phone (390×844):
  // the title (cut at three lines) and one line of what runs, then the buttons, then the
  // full details below them. A command that may not fit that line is shown whole before the
  // buttons: Approve never sits under a command cut short.
  const body = html`<h1 data-testid="phone-title">${agentText(r.description)}</h1>
    <p class="gist" data-testid="phone-gist">
      ${agentText(r.agent)} ·
      ${agentText(r.command !== undefined ? commandOnOneLine(r.command) : r.action)}${
        r.urgency === 'high' || view.inferred?.urgency === 'high' ? ' · urgent' : ''
      }
    </p>
    ${
      r.command !== undefined && !fitsGist(r.command)
        ? html`<pre dir="ltr" class="card runs" data-testid="phone-runs">${r.command}</pre>`
        : ''
    }
    <form method="post" class="card decide" data-testid="phone-form">
      <input type="hidden" name="form" value="${view.formToken}" />
      <div class="buttons">
        ${approvals.map(
          (d) =>
            html`<button
              type="submit"
              name="decision"
              value="${d}"
              class="${BUTTONS[d].className}"
              data-testid="${BUTTONS[d].testid}"
            >
              ${BUTTONS[d].label}
            </button>`,
        )}
        ${
          view.decisions.includes('deny')
            ? html`<label for="reason">Reason for a deny (optional, the agent sees it)</label>
                <textarea
                  id="reason"
                  name="reason"
                  maxlength="2000"
                  data-testid="phone-reason"
                ></textarea>
                <button
                  type="submit"
                  name="decision"
                  value="deny"
                  class="deny"
                  data-testid="phone-deny"
                >
                  Deny
                </button>`
            : ''
        }
      </div>
    </form>
    ${view.edit ? editCard(view, view.edit) : ''} ${r.picture ? pictureCard(r.picture) : ''}
    ${details(r, now, view.agentWaiting, view.inferred)}
    <p class="muted">
      This link works once and until ${at(new Date(view.claims.expiresAt).toISOString(), now)}.
    </p>`;
  return page(`Gatehouse: ${r.description}`, body, cssHref, 'open');
}

/**
 * Edit before approving (phone-edit.ts): folded under the decision buttons, so they stay on
 * the first screen; open with the person's text when their last edit came back (not JSON, a
 * masked value moved, or riskier: then the reason and a button that confirms this text).
 */
function editCard(view: Extract<LinkView, { kind: 'open' }>, e: PhoneEdit): Html {
  const command = e.mode === 'command';
  const rows = Math.min(command ? 4 : 14, e.text.split('\n').length + 1);
  // The line break after the tag is the one HTML drops: the text keeps its own first line.
  const field = new Html(
    `<textarea id="edit" name="edit" rows="${rows}" spellcheck="false" autocapitalize="off" autocomplete="off"${command ? '' : ' class="code"'} data-testid="phone-edit-text">\n${escapeHtml(e.text)}</textarea>`,
  );
  const open = new Html(e.error !== undefined || e.riskier !== undefined ? ' open' : '');
  const what = command ? 'command' : 'call';
  return html`<details class="card edit" data-testid="phone-edit" ${open}>
    <summary data-testid="phone-edit-open">
      ${command ? 'Edit the command before approving' : 'Edit the input (JSON) before approving'}
    </summary>
    <form method="post" data-testid="phone-edit-form">
      <input type="hidden" name="form" value="${view.formToken}" />
      <label for="edit"
        >${
          command
            ? 'Approve this command instead, once'
            : `Approve the ${String(view.request.context?.tool ?? 'tool')} call with this input instead, once`
        }</label
      >
      ${
        e.text.includes(MASK_MARK)
          ? html`<p class="muted" data-testid="phone-edit-masked">
              Values shown as …[masked] are secrets kept off this page: left on a line you do not
              change, each goes back as the agent wrote it.
            </p>`
          : ''
      }
      ${
        holdsHiddenCharacters(e.text)
          ? html`<p class="edit-error" data-testid="phone-edit-hidden">
              This text holds characters that do not show or that reorder what does:
              ${hiddenCharactersIn(e.text).map((h, i) => html`${i > 0 ? ', ' : ''}${h.name} ${h.char}`)}.
              The box shows them as a browser does: unseen, or reordering the text around them.
            </p>`
          : ''
      }
      ${field}
      ${e.error ? html`<p class="edit-error" data-testid="phone-edit-error">${e.error}</p>` : ''}
      <div class="buttons">
        ${
          e.riskier
            ? html`<p class="edit-riskier" data-testid="phone-edit-riskier">${e.riskier}</p>
                <input type="hidden" name="confirmRiskier" value="${e.riskierOf}" />
                <button
                  type="submit"
                  name="decision"
                  value="approve"
                  class="deny"
                  data-testid="phone-edit-confirm-riskier"
                >
                  Approve the riskier ${what} once
                </button>`
            : html`<button
                type="submit"
                name="decision"
                value="approve"
                class="approve"
                data-testid="phone-edit-approve"
              >
                Approve the edited ${what} once
              </button>`
        }
      </div>
    </form>
  </details>`;
}

/** How a decided request was decided, in words. */
export function decisionWords(r: RequestRecord): string {
  const what =
    r.status === 'approved'
      ? `Approved${r.scope === 'session' ? ' for the session' : r.scope === 'always' ? ' always' : ' once'}`
      : r.status === 'denied'
        ? 'Denied'
        : r.status === 'cancelled'
          ? 'Cancelled'
          : r.status;
  const by = provenanceOfRequest(r);
  const who =
    by === undefined || by.kind === 'timeout'
      ? ''
      : by.kind === 'person'
        ? `by a person${by.via ? ` via ${by.via}` : ''}`
        : by.kind === 'system'
          ? 'by the agent or Gatehouse'
          : `by ${decidedByOf(by)}`;
  const when = r.decidedAt ? ` at ${at(r.decidedAt, Date.now())}` : '';
  return `${what} ${who}${when}${r.reason ? `: ${r.reason}` : ''}.`;
}

/** A request that is no longer waiting: who decided, how and when. */
export function decidedPage(request: RequestRecord, now: number, cssHref: string): string {
  const r = maskedForPhone(request);
  const body = html`<h1 data-testid="phone-title">${agentText(r.description)}</h1>
    <p class="card result" data-testid="phone-decided">${decisionWords(r)}</p>
    ${details(r, now)}`;
  return page(`Gatehouse: ${r.description}`, body, cssHref);
}

const REFUSAL_WORDS: Record<LinkRefusal, string> = {
  malformed: 'This is not a Gatehouse decision link.',
  forged: 'This link was not made by this Gatehouse. Nothing was decided.',
  expired: 'This link has expired. Decide in the dashboard, or ask for a new link.',
  replayed: 'This link was already used. A link decides once.',
  bad_form: 'This decision did not come from the link’s page. Open the link and press again.',
  not_allowed: 'This link does not allow that decision.',
  unknown_request: 'The request of this link no longer exists.',
};

/** A plain refusal: no details of any request. */
export function refusalPage(reason: LinkRefusal, cssHref: string): string {
  const body = html`<h1>Link refused</h1>
    <p class="card" data-testid="phone-refused" data-reason="${reason}">
      ${REFUSAL_WORDS[reason]}
    </p>`;
  return page('Gatehouse: link refused', body, cssHref, 'refused');
}

/** Diff lines shown on the phone per file: the first screen; the dashboard has the rest. */
const PHONE_DIFF_LINES = 40;
/** Commits of a push listed on the phone. */
const PHONE_COMMITS = 10;

/**
 * A request's picture on the phone, below the buttons: a message's recipients and body, each
 * file's `+A −R` and the start of its diff, a push's branch, force and commits, the start of
 * each file a command applies, and what was left out.
 */
function pictureCard(p: RequestPicture): Html {
  const diffLine = (line: string, path: string | undefined) => {
    const kind = line.startsWith('@@')
      ? 'hunk'
      : line.startsWith('+') && !line.startsWith('+++')
        ? 'add'
        : line.startsWith('-') && !line.startsWith('---')
          ? 'del'
          : 'ctx';
    // Code lines are highlighted by their file's language: each token is escaped text in a
    // span of its highlight.js scope, never the highlighter's HTML.
    const code = kind === 'add' || kind === 'del' || (kind === 'ctx' && line.startsWith(' '));
    if (!code) return html`<span class="${kind}">${line}</span>`;
    const tokens = highlightLine(line.slice(1), path).map((t) =>
      t.scope ? html`<span class="${t.scope}">${t.text}</span>` : t.text,
    );
    return html`<span class="${kind}">${line.slice(0, 1)}${tokens}</span>`;
  };
  const files = (p.files ?? []).map((f) => {
    const lines = f.diff?.split('\n') ?? [];
    const rest = lines.length - PHONE_DIFF_LINES;
    return html`<div data-testid="phone-file">
      <p>
        <code>${agentText(f.path)}</code> <span class="stat-add">+${f.added}</span>
        <span class="stat-del">−${f.removed}</span>
      </p>
      ${lines.length ? html`<pre class="diff" dir="ltr">${lines.slice(0, PHONE_DIFF_LINES).map((l) => diffLine(l, f.path))}</pre>` : ''}
      ${rest > 0 ? html`<p class="muted">${rest} more lines on the dashboard</p>` : ''}
      ${f.omitted ? html`<p class="muted">Left out: ${f.omitted}</p>` : ''}
    </div>`;
  });
  const push = p.push;
  const commits = push ? `${push.commitCount} commit${push.commitCount === 1 ? '' : 's'}` : '';
  const pushPart = push
    ? html`<div data-testid="phone-push">
        <p>
          Push <code>${agentText(push.branch ?? '?')}</code> to
          <code>${agentText(push.remote)}</code>
          ${push.force ? html`<span class="force">force</span>` : ''}: ${commits}
        </p>
        <ul data-testid="phone-commits">
          ${push.commits.slice(0, PHONE_COMMITS).map((c) => html`<li><code>${c.sha.slice(0, 8)}</code> ${agentText(c.subject)}</li>`)}
        </ul>
        ${push.diffstat ? html`<pre>${push.diffstat.split('\n').slice(-1)[0]!.trim()}</pre>` : ''}
        ${push.omitted ? html`<p class="muted">Left out: ${push.omitted}</p>` : ''}
      </div>`
    : '';
  const applied = (p.applied ?? []).map((a) => {
    const lines = a.content?.split('\n') ?? [];
    return html`<div data-testid="phone-applied">
      <p>Applies <code>${agentText(a.path)}</code> (${a.by})</p>
      ${lines.length ? html`<pre>${lines.slice(0, PHONE_DIFF_LINES).join('\n')}</pre>` : ''}
      ${lines.length > PHONE_DIFF_LINES ? html`<p class="muted">${lines.length - PHONE_DIFF_LINES} more lines on the dashboard</p>` : ''}
      ${a.omitted ? html`<p class="muted">Left out: ${a.omitted}</p>` : ''}
    </div>`;
  });
  const m = p.message;
  const message = m
    ? html`<div data-testid="phone-message">
        <p>Message (${m.kind})</p>
        ${m.to ? html`<p>To: ${m.to.join(', ')}</p>` : ''}
        ${m.cc ? html`<p>Cc: ${m.cc.join(', ')}</p>` : ''}
        ${m.channel ? html`<p>${m.kind === 'chat' ? 'Channel' : 'On'}: <code>${m.channel}</code></p>` : ''}
        ${m.subject !== undefined ? html`<p>Subject: ${m.subject}</p>` : ''}
        ${m.body !== undefined ? html`<pre>${m.body.split('\n').slice(0, PHONE_DIFF_LINES).join('\n')}</pre>` : ''}
        ${m.omitted ? html`<p class="muted">Left out: ${m.omitted}</p>` : ''}
      </div>`
    : '';
  if (!files.length && !push && !applied.length && !m) return html``;
  return html`<section class="card" data-testid="phone-picture">
    ${message}${pushPart}${files}${applied}
  </section>`;
}
