import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LinkDecider, LinkOutcome, LinkRefusal, LinkTransport } from './link-decider';
import { PHONE_CSP, PHONE_CSS, decidedPage, openPage, refusalPage } from './phone-page';
import { MAX_TOKEN_CHARS } from './decision-token';

/**
 * Largest accepted body of a decision POST: a reason of a few thousand characters, or an
 * edited tool input (kept up to 16 KB as JSON, which form encoding can make three times longer).
 */
const MAX_FORM_BYTES = 64 * 1024;

/** The pages' answer to each refusal: gone for expired, conflict for a used link. */
const REFUSAL_STATUS: Record<LinkRefusal, number> = {
  malformed: 403,
  forged: 403,
  bad_form: 403,
  not_allowed: 403,
  expired: 410,
  replayed: 409,
  unknown_request: 404,
};

/** Headers of every link response: nothing cached, the token never sent on as a Referer. */
const LINK_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PHONE_CSP,
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'X-Robots-Tag': 'noindex, nofollow',
};

/**
 * The decision links over HTTP, for the loopback dashboard and the remote listener alike:
 *
 * - `GET /d/<token>`: the phone page (never decides);
 * - `POST /d/<token>`: the page's form (decision, one-time form token, reason, or an edited call
 *   to approve once); answers 303 to the page, which then says what was decided, or 422 with
 *   the page again when the edit was not approved (why is on it);
 * - `POST /d/<token>/act`: a button, for a token carrying exactly one decision; JSON answer;
 * - `GET /d/-/phone.css`: the pages' stylesheet.
 *
 * URLs in answers are relative, so the pages work under a reverse proxy's path prefix.
 * Returns false for any other path (the caller answers it).
 */
export function linkRoutes(o: {
  decider: LinkDecider;
  transport: LinkTransport;
  now: () => number;
}): (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean> {
  return async (req, res, path) => {
    if (!path.startsWith('/d/')) return false;
    for (const [name, value] of Object.entries(LINK_HEADERS)) res.setHeader(name, value);
    const rest = path.slice('/d/'.length);
    if (rest === '-/phone.css') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, 'GET');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      send(res, 200, 'text/css; charset=utf-8', PHONE_CSS);
      return true;
    }
    if (rest === '-/icon') {
      // No icon: an empty answer instead of the browser's 404 for /favicon.ico.
      res.writeHead(204, { 'Cache-Control': 'public, max-age=86400' });
      res.end();
      return true;
    }
    const act = rest.endsWith('/act');
    const token = act ? rest.slice(0, -'/act'.length) : rest;
    if (token.length === 0 || token.length > MAX_TOKEN_CHARS || token.includes('/')) {
      send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
      return true;
    }
    const css = act ? '../-/phone.css' : '-/phone.css';
    if (act) {
      if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
      const form = await readForm(req);
      if (form === undefined) return tooLarge(res);
      const outcome = await o.decider.redeemAction(
        token,
        o.transport,
        form.get('reason') ?? undefined,
      );
      sendOutcomeJson(res, outcome);
      return true;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const view = await o.decider.view(token, o.transport);
      if (view.kind === 'refused')
        send(res, REFUSAL_STATUS[view.reason], HTML, refusalPage(view.reason, css));
      else if (view.kind === 'decided')
        send(res, 200, HTML, decidedPage(view.request, o.now(), css));
      else send(res, 200, HTML, openPage(view, o.now(), css));
      return true;
    }
    if (req.method !== 'POST') return methodNotAllowed(res, 'GET, POST');
    const form = await readForm(req);
    if (form === undefined) return tooLarge(res);
    const outcome = await o.decider.decideFromPage(
      token,
      {
        decision: form.get('decision') ?? '',
        formToken: form.get('form') ?? '',
        ...(form.get('reason') ? { reason: form.get('reason')! } : {}),
        ...(form.has('edit') ? { edit: form.get('edit')! } : {}),
        ...(form.get('confirmRiskier') ? { confirmRiskier: form.get('confirmRiskier')! } : {}),
      },
      o.transport,
    );
    if (outcome.kind === 'edit_refused') {
      // Nothing decided, the link unspent: the page again, with the edit and why.
      send(res, 422, HTML, openPage(outcome.view, o.now(), css));
      return true;
    }
    if (outcome.kind === 'refused') {
      send(res, REFUSAL_STATUS[outcome.reason], HTML, refusalPage(outcome.reason, css));
      return true;
    }
    // Post/redirect/get: the page now shows the decision, and a reload does not post again.
    res.writeHead(303, { Location: encodeURI(token), 'Content-Length': '0' });
    res.end();
    return true;
  };
}

const HTML = 'text/html; charset=utf-8';

function sendOutcomeJson(res: ServerResponse, outcome: LinkOutcome): void {
  if (outcome.kind === 'refused') {
    send(
      res,
      REFUSAL_STATUS[outcome.reason],
      'application/json; charset=utf-8',
      JSON.stringify({ error: { reason: outcome.reason } }),
    );
    return;
  }
  const r = outcome.request;
  send(
    res,
    outcome.byThisLink ? 200 : 409,
    'application/json; charset=utf-8',
    JSON.stringify({
      result: {
        requestId: r.requestId,
        status: r.status,
        decidedVia: r.decidedVia,
        decidedAt: r.decidedAt,
        byThisLink: outcome.byThisLink,
      },
    }),
  );
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

function methodNotAllowed(res: ServerResponse, allow: string): true {
  res.setHeader('Allow', allow);
  send(res, 405, 'text/plain; charset=utf-8', `use ${allow}\n`);
  return true;
}

function tooLarge(res: ServerResponse): true {
  send(res, 413, 'text/plain; charset=utf-8', 'body too large\n');
  return true;
}

/**
 * The body as form fields: `application/x-www-form-urlencoded` (the page), or a JSON object
 * of strings (a webhook callback). Undefined past the size limit.
 */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') {
    const fields = new URLSearchParams();
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') fields.set(k, v);
    } catch {
      // Not JSON: no fields; the decision needs none but the token's.
    }
    return fields;
  }
  return new URLSearchParams(text);
}
