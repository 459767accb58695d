import { useEffect, useState } from 'react';

/**
 * "Sign in with <provider>" on the hub's signed-out page, when the hub has single sign-on on
 * (it says so at `GET /api/sso`, which needs no sign-in). The button is a plain link to
 * `auth/oidc/start`: the hub sends the browser to the provider, and the provider back.
 */
export function HubSsoSignIn() {
  const [provider, setProvider] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    fetch(new URL('api/sso', document.baseURI), { credentials: 'omit' })
      .then(async (r) =>
        r.ok ? ((await r.json()) as { enabled?: unknown; provider?: unknown }) : {},
      )
      .then((body) => {
        if (live && body.enabled === true && typeof body.provider === 'string')
          setProvider(body.provider);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!provider) return null;
  return (
    <p>
      <a className="button primary" href="auth/oidc/start" data-testid="hub-sso-sign-in">
        Sign in with {provider}
      </a>
    </p>
  );
}
