import type { Root } from 'react-dom/client';
import { StrictMode } from 'react';
import { SIGN_IN_FRAGMENT } from '../../../shared/protocol/hub-web-methods';
import { HubApp, HubSignedOut } from './HubApp';
import { createHubClient, hubSignIn, hubWhoAmI } from './hub-client';
import { HubLiveContext } from './use-hub-poll';

/**
 * When the page is served by a hub: spends a sign-in link's token (`#signin=…`, taken out of
 * the address bar at once), then shows the team dashboard or the signed-out page. False when
 * the server is not a hub (the daemon's own dashboard), which then starts as it always does.
 */
export async function bootstrapHub(root: Root, baseUrl: string): Promise<boolean> {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const token = params.get(SIGN_IN_FRAGMENT);
  let problem: string | undefined;
  if (token) {
    params.delete(SIGN_IN_FRAGMENT);
    const rest = params.toString();
    window.history.replaceState(
      null,
      '',
      `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`,
    );
    problem = await hubSignIn(baseUrl, token);
  }
  const who = await hubWhoAmI(baseUrl);
  if (who.kind === 'not-a-hub') return false;
  if (who.kind === 'signed-out') {
    root.render(<HubSignedOut problem={problem} />);
    return true;
  }
  const client = createHubClient(baseUrl, who.me.csrf);
  root.render(
    <StrictMode>
      <HubLiveContext.Provider value={client.live}>
        <HubApp client={client} me={who.me} />
      </HubLiveContext.Provider>
    </StrictMode>,
  );
  return true;
}
