import type { RequestLinks } from './request-links';
import type { OutgoingNotification } from './types';

const escapeHtml = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** The plain-text lines with the links: each decision is still confirmed on the page (a POST). */
export function emailLinkLines(links: RequestLinks | undefined): string[] {
  if (!links) return [];
  return [
    [
      `Open the request: ${links.page}`,
      `Approve: ${links.approve}`,
      `Deny: ${links.deny}`,
      '(Each link opens the request; nothing is decided until you confirm there.)',
    ].join('\n'),
  ];
}

const button = (href: string, label: string, color: string): string =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;margin:0 8px 8px 0;` +
  `border-radius:6px;background:${color};color:#fff;text-decoration:none;font-weight:600">${label}</a>`;

/**
 * A small HTML part: the same text (escaped: agents write it), a single request's diff
 * (bounded, masked, escaped, coloured), and the links as buttons. No
 * images, scripts or remote content, so it renders the same in every mail client.
 */
export function emailHtmlOf(
  n: OutgoingNotification,
  links: RequestLinks | undefined,
  footer: string,
): string {
  const lines = n.body
    .split('\n')
    .map((l) => `<div>${escapeHtml(l)}</div>`)
    .join('');
  const diff = n.items.length === 1 ? n.items[0]?.diff : undefined;
  const diffPart = diff
    ? '<pre style="font-size:12px;line-height:1.35;background:#f6f8fa;padding:8px;overflow:auto">' +
      diff
        .split('\n')
        .map((l) => {
          const color = l.startsWith('@@')
            ? '#6e40c9'
            : l.startsWith('+') && !l.startsWith('+++')
              ? '#116329'
              : l.startsWith('-') && !l.startsWith('---')
                ? '#82071e'
                : '#24292f';
          return `<span style="color:${color}">${escapeHtml(l)}</span>`;
        })
        .join('\n') +
      '</pre>'
    : '';
  const actions = links
    ? `<p style="margin:16px 0 4px">${button(links.approve, 'Approve…', '#1a7f37')}` +
      `${button(links.deny, 'Deny…', '#cf222e')}${button(links.page, 'Open the request', '#57606a')}</p>` +
      '<p style="color:#57606a;font-size:13px">Nothing is decided until you confirm on the page.</p>'
    : '';
  return (
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.45">' +
    `<h2 style="font-size:17px">${escapeHtml(n.title)}</h2>${lines}${diffPart}${actions}` +
    `<p style="color:#57606a;font-size:12px">${escapeHtml(footer)}</p></body></html>`
  );
}
