import type { HubClient } from './hub-client';
import { useHubPoll } from './use-hub-poll';

/**
 * The hub's groups and who is in them (admin only, read-only): groups are made with
 * `gatehouse hub group …` on the hub's host, or named by the identity provider.
 */
export function HubGroups({ client }: { client: HubClient }) {
  const { data, error } = useHubPoll(() => client.call('groups.list', {}), 'groups');
  return (
    <section className="panel" data-testid="hub-groups">
      <h2>Groups</h2>
      {error && <p className="error">{error}</p>}
      {data && data.groups.length === 0 && (
        <p className="muted">
          No groups yet (gatehouse hub group add NAME on the hub&apos;s host).
        </p>
      )}
      {data && data.groups.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>Group</th>
              <th>Members</th>
            </tr>
          </thead>
          <tbody>
            {data.groups.map((g) => (
              <tr key={g.name} data-testid="hub-group">
                <td>{g.name}</td>
                <td>
                  {g.members
                    .map((m) =>
                      m.sources.includes('hub') ? m.name : `${m.name} (identity provider)`,
                    )
                    .join(', ') || 'nobody'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
