import { useNotify } from '../components/notice';
import type { HubClient } from './hub-client';
import { useHubPoll } from './use-hub-poll';

const when = (ms: number | undefined) => (ms ? new Date(ms).toLocaleString() : 'never');

/** The joined machines (admin only): online, last seen, version, and revoke. */
export function HubMachines({ client }: { client: HubClient }) {
  const notify = useNotify();
  const { data, error, reload } = useHubPoll(() => client.call('machines.list', {}), 'machines');
  const revoke = async (machine: string) => {
    if (!window.confirm(`Revoke ${machine}? Its link is closed and refused from then on.`)) return;
    try {
      await client.call('machines.revoke', { machine });
      notify('info', `Revoked ${machine}`);
      reload();
    } catch (e) {
      notify('error', e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section className="panel" data-testid="hub-machines">
      <h2>Machines</h2>
      {error && <p className="error">{error}</p>}
      {data && data.machines.length === 0 && (
        <p className="empty">
          No machine joined yet: <code>gatehouse hub invite --machine NAME</code> on the hub&apos;s
          host.
        </p>
      )}
      {data && data.machines.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>Machine</th>
              <th>State</th>
              <th>Last seen</th>
              <th>Version</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data.machines.map((m) => (
              <tr key={m.name} data-testid="hub-machine" data-machine={m.name}>
                <td>{m.name}</td>
                <td data-testid="hub-machine-state">
                  {m.revokedAt ? 'revoked' : m.online ? 'online' : 'offline'}
                </td>
                <td>{when(m.lastSeenAt)}</td>
                <td>{m.version ?? '—'}</td>
                <td>
                  {!m.revokedAt && (
                    <button
                      type="button"
                      className="button warn"
                      onClick={() => void revoke(m.name)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
