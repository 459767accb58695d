import type { Page } from 'playwright-core';

/**
 * A POST to the team dashboard's API made by the signed-in page itself, in the browser: its
 * session cookie, and the CSRF token its `me` call hands out, as the dashboard's own code
 * sends them. A test checks what the hub lets that page do beyond its buttons; with
 * `csrf: false`, what it lets a page do that leaves the token out (a forged form).
 */
export async function postFromPage(
  page: Page,
  path: string,
  body: unknown = {},
  o: { csrf?: boolean } = {},
): Promise<{ status: number; error?: string }> {
  return page.evaluate(
    async ({ path, body, withCsrf }) => {
      const post = (p: string, payload: unknown, csrf?: string) =>
        fetch(p, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(csrf ? { 'X-Gatehouse-Csrf': csrf } : {}),
          },
          body: JSON.stringify(payload),
          credentials: 'same-origin',
        });
      const me = (await (await post('/web/api/me', {})).json()) as { result: { csrf: string } };
      const res = await post(path, body, withCsrf ? me.result.csrf : undefined);
      const json = (await res.json()) as { error?: string };
      return { status: res.status, ...(json.error ? { error: json.error } : {}) };
    },
    { path, body, withCsrf: o.csrf ?? true },
  );
}
