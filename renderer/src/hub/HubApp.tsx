import { useState } from 'react';
import { roleAtLeast, type HubWebResult } from '../../../shared/protocol/hub-web-methods';
import { NoticeProvider } from '../components/notice';
import { HubMachines } from './HubMachines';
import { HubNotifyMe } from './HubNotifyMe';
import { HubGroups } from './HubGroups';
import { HubPasskeys, SecondFactorPrompt, usePasskeys } from './HubPasskeys';
import { HubPeople } from './HubPeople';
import { HubRequests } from './HubRequests';
import { HubSsoSignIn } from './HubSsoSignIn';
import { PasskeySignIn } from './PasskeySignIn';
import type { HubClient } from './hub-client';

type HubView = 'pending' | 'history' | 'machines' | 'people' | 'passkeys' | 'notify';

const LABELS: Record<HubView, string> = {
  pending: 'Pending',
  history: 'History',
  machines: 'Machines',
  people: 'People',
  passkeys: 'Passkeys',
  notify: 'My notifications',
};

/**
 * The team dashboard: the same page the daemon serves, when the server is a hub. Pending and
 * history for everyone signed in; machines and people for admins (the hub refuses them to
 * others whatever the page shows).
 */
export function HubApp({ client, me }: { client: HubClient; me: HubWebResult<'me'> }) {
  const [view, setView] = useState<HubView>('pending');
  const role = me.person.role;
  const views: HubView[] = [
    ...(roleAtLeast(role, 'admin')
      ? (['pending', 'history', 'machines', 'people', 'passkeys'] as const)
      : (['pending', 'history', 'passkeys'] as const)),
    // The hub notifies who may decide: a viewer has no channel to set.
    ...(roleAtLeast(role, 'approver') ? (['notify'] as const) : []),
  ];
  const passkeys = usePasskeys(me.csrf);
  const signOut = async () => {
    await client.signOut().catch(() => undefined);
    window.location.reload();
  };
  return (
    <NoticeProvider>
      <div className="app" data-testid="hub-app">
        <header className="topbar">
          <h1 className="brand">Gatehouse hub</h1>
          <nav aria-label="Views" className="tabs">
            {views.map((v) => (
              <a
                key={v}
                href={`#view=${v}`}
                data-testid={`hub-nav-${v}`}
                className={view === v ? 'tab active' : 'tab'}
                aria-current={view === v ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  setView(v);
                }}
              >
                {LABELS[v]}
              </a>
            ))}
          </nav>
          <span className="muted" data-testid="hub-person">
            {me.person.name} ({role})
          </span>
          <button
            type="button"
            className="button"
            data-testid="hub-sign-out"
            onClick={() => void signOut()}
          >
            Sign out
          </button>
        </header>
        <main className="content" id="main">
          <SecondFactorPrompt csrf={me.csrf} state={passkeys} />
          {view === 'pending' && <HubRequests client={client} role={role} state="waiting" />}
          {view === 'history' && <HubRequests client={client} role={role} state="decided" />}
          {view === 'machines' && <HubMachines client={client} />}
          {view === 'people' && <HubPeople client={client} />}
          {view === 'passkeys' && <HubPasskeys csrf={me.csrf} state={passkeys} />}
          {view === 'people' && <HubGroups client={client} />}
          {view === 'notify' && <HubNotifyMe client={client} />}
        </main>
      </div>
    </NoticeProvider>
  );
}

/** The hub's page for a browser that is not signed in (or whose link did not work). */
export function HubSignedOut({ problem }: { problem?: string | undefined }) {
  return (
    <main className="missing-secret" data-testid="hub-signed-out">
      <h1>Gatehouse hub</h1>
      {problem && (
        <p className="error" role="alert" data-testid="hub-sign-in-error">
          {problem}
        </p>
      )}
      <HubSsoSignIn />
      <p>
        Open the sign-in link a hub admin made for you (<code>gatehouse hub user add NAME</code>
        ). It works once; this browser then stays signed in for a week.
      </p>
      <PasskeySignIn />
    </main>
  );
}
