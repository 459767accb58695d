import { useState } from 'react';
import { PersonRole } from '../../../shared/hub-protocol';
import { SIGN_IN_FRAGMENT } from '../../../shared/protocol/hub-web-methods';
import { useNotify } from '../components/notice';
import type { HubClient } from './hub-client';
import { useHubPoll } from './use-hub-poll';

/** People on the hub (admin only): their roles and last sign-in; add one for a sign-in link. */
export function HubPeople({ client }: { client: HubClient }) {
  const notify = useNotify();
  const { data, error, reload } = useHubPoll(() => client.call('people.list', {}), 'people');
  const [name, setName] = useState('');
  const [role, setRole] = useState<PersonRole>('approver');
  const [link, setLink] = useState<string | undefined>(undefined);
  const newLink = async (person: string) => {
    try {
      const r = await client.call('people.link', { name: person });
      setLink(`${window.location.origin}/#${SIGN_IN_FRAGMENT}=${r.token}`);
    } catch (e) {
      notify('error', e instanceof Error ? e.message : String(e));
    }
  };
  const add = async () => {
    try {
      const r = await client.call('people.add', { name, role });
      setLink(`${window.location.origin}/#${SIGN_IN_FRAGMENT}=${r.token}`);
      setName('');
      reload();
    } catch (e) {
      notify('error', e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section className="panel" data-testid="hub-people">
      <h2>People</h2>
      {error && <p className="error">{error}</p>}
      {data && (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
              <th>Last sign-in</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data.people.map((p) => (
              <tr key={p.name} data-testid="hub-person">
                <td>{p.name}</td>
                <td>{p.role}</td>
                <td>{p.lastSignInAt ? new Date(p.lastSignInAt).toLocaleString() : 'never'}</td>
                <td>
                  <button type="button" className="button" onClick={() => void newLink(p.name)}>
                    New sign-in link
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="form-actions"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <input
          aria-label="Name"
          placeholder="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <select
          aria-label="Role"
          value={role}
          onChange={(e) => setRole(PersonRole.parse(e.target.value))}
        >
          <option value="viewer">viewer</option>
          <option value="approver">approver</option>
          <option value="admin">admin</option>
        </select>
        <button type="submit" className="button" disabled={!name}>
          Add and make a sign-in link
        </button>
      </form>
      {link && (
        <p className="hint" data-testid="hub-sign-in-link">
          Send this single-use link (valid 24 hours) to the person: <code>{link}</code>
        </p>
      )}
    </section>
  );
}
