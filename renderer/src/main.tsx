import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createGatehouseApi } from '../../shared/gatehouse-api';
import { App } from './components/App';
import { ApiProvider } from './api-context';
import { connectionStatus } from './transport/connection';
import { createHttpTransport } from './transport/http-transport';
import { takeDashboardSecret } from './transport/secret';
import './styles.css';

/**
 * In the desktop app the preload has already put `window.gatehouse` in place. On the headless
 * dashboard there is no preload: the page builds the same API over loopback HTTP, with the
 * secret that the daemon printed in the URL fragment.
 */
function bootstrap(): void {
  const root = createRoot(document.getElementById('root')!);
  if (!window.gatehouse) {
    const secret = takeDashboardSecret();
    if (!secret) {
      root.render(<MissingSecret />);
      return;
    }
    connectionStatus.set('connecting');
    window.gatehouse = createGatehouseApi(
      createHttpTransport({ secret, baseUrl: new URL('./', window.location.href).href }),
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
        Open the dashboard with the full URL that <code>gatehouse daemon</code> printed; it ends
        with <code>#secret=…</code>.
      </p>
    </main>
  );
}

bootstrap();
