import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { HubLinkStatus } from '../../../shared/protocol/admin-methods';
import type { TeamPolicyInfo } from '../../../shared/policy/team-policy';
import { useApi } from '../api-context';
import { useGatehouseEvents } from '../state/use-events';

/** How often the machine's dashboard looks at its hub link (which sends no engine event). */
const HUB_LINK_POLL_MS = 10_000;

const JoinedHubContext = createContext<HubLinkStatus | undefined>(undefined);

/**
 * The hub this machine joined, from `status.hub`: read at start, after each request event
 * (a publish follows it) and every few seconds (the link goes up and down on its own).
 */
export function JoinedHubProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const [hub, setHub] = useState<HubLinkStatus | undefined>(undefined);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    const load = () =>
      api.getStatus().then(
        (s) => live && setHub(s.hub),
        () => undefined,
      );
    void load();
    const timer = setInterval(() => void load(), HUB_LINK_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [api, tick]);
  useGatehouseEvents((event) => {
    if (event.type.startsWith('request.')) setTick((t) => t + 1);
  });
  return <JoinedHubContext.Provider value={hub}>{children}</JoinedHubContext.Provider>;
}

/** True when the joined hub shows this waiting request too. */
export function useShownOnHub(requestId: string): boolean {
  const hub = useContext(JoinedHubContext);
  return hub?.shownOnHub.includes(requestId) ?? false;
}

/** The top bar's word on the joined hub: linked or not (and why); nothing when not joined. */
export function JoinedHubBadge() {
  const hub = useContext(JoinedHubContext);
  if (!hub) return null;
  const host = (() => {
    try {
      return new URL(hub.url).host;
    } catch {
      return hub.url;
    }
  })();
  const title = [
    `Joined ${hub.url} as ${hub.machineName}`,
    hub.connected ? 'link up' : `link down${hub.error ? `: ${hub.error}` : ''}`,
    `${hub.shownOnHub.length} waiting request(s) shown on the hub`,
    ...(hub.outbox > 0 ? [`${hub.outbox} to publish`] : []),
    ...(hub.teamPolicy ? [teamPolicyText(hub.teamPolicy)] : []),
  ].join('\n');
  return (
    <span
      className={`connection ${hub.connected ? 'connection-live' : 'connection-reconnecting'}`}
      data-testid="joined-hub"
      data-connected={hub.connected ? 'true' : 'false'}
      title={title}
      role="status"
    >
      {hub.connected ? `Hub ${host}: linked` : `Hub ${host}: not linked`}
      {hub.teamPolicy && hub.teamPolicy.version > 0 ? (
        <span data-testid="team-policy-version"> · team policy v{hub.teamPolicy.version}</span>
      ) : null}
    </span>
  );
}

/** The team policy line of the badge's title: the version this machine runs, and a refusal. */
function teamPolicyText(t: TeamPolicyInfo): string {
  const runs =
    t.version > 0
      ? `team policy v${t.version}: ${t.enforced} enforced, ${t.shadow} in shadow`
      : 'no team policy';
  return t.lastRefused ? `${runs}; refused a bundle: ${t.lastRefused.reason}` : runs;
}

/** A request row's mark: the team sees it on the hub too. */
export function ShownOnHubTag({ requestId }: { requestId: string }) {
  if (!useShownOnHub(requestId)) return null;
  return (
    <span
      className="tag-hub"
      data-testid="shown-on-hub"
      title="The team hub shows this request too"
    >
      on hub
    </span>
  );
}
