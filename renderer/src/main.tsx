import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createGatehouseApi } from '../../shared/gatehouse-api';
import { App } from './components/App';
import { bootstrapHub } from './hub/bootstrap-hub';
import { ApiProvider } from './api-context';
import { connectionStatus } from './transport/connection';
import { createHttpTransport } from './transport/http-transport';
import { forgetDashboardSecret, takeDashboardSecret } from './transport/secret';
import { DASHBOARD_SECRET_HEADER } from '../../shared/protocol/constants';
import './styles.css';

/**
 * In the desktop app the preload has already put `window.gatehouse` in place. On the headless
 * dashboard there is no preload: the page builds the same API over loopback HTTP, with the
 * secret that the daemon printed in the URL fragment.
 */
async function bootstrap(): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  if (!window.gatehouse) {
    const baseUrl = new URL('./', window.location.href).href;
    // A page that carries the daemon's secret is the daemon's; otherwise ask whether a hub
    // served it (the team dashboard), which answers for itself.
    if (!window.location.hash.includes('secret=') && (await bootstrapHub(root, baseUrl))) return;
    const secret = takeDashboardSecret();
    // The printed URL's secret is traded once for a session cookie; from then on every link
    // to the dashboard (a notification's `#request=…`, a bookmark) opens signed in.
    const signedIn = secret ? await signIn(baseUrl, secret) : await hasSession(baseUrl);
    if (!signedIn && !secret) {
      root.render(<MissingSecret />);
      return;
    }
    if (signedIn) forgetDashboardSecret();
    connectionStatus.set('connecting');
    window.gatehouse = createGatehouseApi(
      createHttpTransport({ ...(signedIn ? {} : { secret }), baseUrl }),
    );
  }
  root.render(
    <StrictMode>
      <ApiProvider api={window.gatehouse}>
        <App />
      </ApiProvider>
    </StrictMode>,
  );
}

function MissingSecret() {
  return (
    <main className="missing-secret" data-testid="missing-secret">
      <h1>Gatehouse</h1>
      <p>
        Open the dashboard once with the full URL that <code>gatehouse daemon</code> printed (or
        that <code>gatehouse dashboard</code> prints); it ends with <code>#secret=…</code>. This
        browser then stays signed in, and links from notifications open directly.
      </p>
    </main>
  );
}

/** Trades the secret for a session cookie; false when the server refused it. */
async function signIn(baseUrl: string, secret: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('auth/session', baseUrl), {
      method: 'POST',
      headers: { [DASHBOARD_SECRET_HEADER]: secret },
      credentials: 'same-origin',
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** True when this browser's session cookie is still good (a read that changes nothing). */
async function hasSession(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('api/status', baseUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      credentials: 'same-origin',
    });
    return response.ok;
  } catch {
    return false;
  }
}

void bootstrap();
