import { useEffect, useState } from 'react';
import {
  PersonNotifyPrefs,
  type PersonNotifyChannel,
} from '../../../shared/protocol/hub-person-notify';
import type { HubWebResult } from '../../../shared/protocol/hub-web-methods';
import { useNotify } from '../components/notice';
import type { HubClient } from './hub-client';

type ChannelKind = PersonNotifyChannel['kind'];

const CHANNEL_LABELS: Record<ChannelKind, string> = {
  ntfy: 'My ntfy topic',
  email: 'My mail address',
  webhook: 'My webhook',
};

/** The form's text fields, one per kind of channel, kept while the person switches kinds. */
interface Draft {
  kind: ChannelKind | 'none';
  topic: string;
  to: string;
  url: string;
  secret: string;
  desktop: boolean;
  newRequests: boolean;
  remind: string;
}

function draftOf(prefs: PersonNotifyPrefs): Draft {
  const c = prefs.channel;
  return {
    kind: c?.kind ?? 'none',
    topic: c?.kind === 'ntfy' ? c.topic : '',
    to: c?.kind === 'email' ? c.to : '',
    url: c?.kind === 'webhook' ? c.url : '',
    secret: c?.kind === 'webhook' ? c.secret : '',
    desktop: prefs.desktop,
    newRequests: prefs.newRequests,
    remind: prefs.remindAfterMinutes === undefined ? '' : String(prefs.remindAfterMinutes),
  };
}

function channelOf(d: Draft): PersonNotifyChannel | undefined {
  switch (d.kind) {
    case 'ntfy':
      return { kind: 'ntfy', topic: d.topic.trim() };
    case 'email':
      return { kind: 'email', to: d.to.trim() };
    case 'webhook':
      return { kind: 'webhook', url: d.url.trim(), secret: d.secret };
    case 'none':
      return undefined;
  }
}

/**
 * "My notifications" on the team dashboard (approvers and admins: the hub notifies who may
 * decide): where the hub tells the signed-in person, among the channels its admin turned on,
 * whether on the desktop of their own machines, and after how long it reminds them. Saved with
 * `notify.set`, which the hub checks as it checks `POST /api/me/notify` (the webhook against its
 * allow-list); its refusal is shown as it comes.
 */
export function HubNotifyMe({ client }: { client: HubClient }) {
  const notify = useNotify();
  const [loaded, setLoaded] = useState<HubWebResult<'notify.get'> | undefined>(undefined);
  const [draft, setDraft] = useState<Draft | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    client
      .call('notify.get', {})
      .then((r) => {
        if (!live) return;
        setLoaded(r);
        setDraft(draftOf(r.prefs));
      })
      .catch((e: unknown) => live && setProblem(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [client]);

  if (!loaded || !draft)
    return (
      <section className="panel" data-testid="hub-notify-me">
        <h2>My notifications</h2>
        {problem ? <p className="error">{problem}</p> : <p className="muted">Loading…</p>}
      </section>
    );

  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const stored = loaded.prefs.channel?.kind;
  // The stored kind stays choosable (to see it, or to change its address) even when the
  // admin turned it off since; the hub then sends nothing through it.
  const kinds = (['ntfy', 'email', 'webhook'] as const).filter(
    (k) => loaded.offered.includes(k) || k === stored,
  );
  const save = async () => {
    setProblem(undefined);
    const remind = draft.remind.trim();
    const prefs = PersonNotifyPrefs.safeParse({
      ...(channelOf(draft) ? { channel: channelOf(draft) } : {}),
      desktop: draft.desktop,
      newRequests: draft.newRequests,
      ...(remind ? { remindAfterMinutes: Number(remind) } : {}),
    });
    if (!prefs.success) {
      const issue = prefs.error.issues[0];
      setProblem(`${issue?.path.join('.') || 'settings'}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    setSaving(true);
    try {
      const r = await client.call('notify.set', prefs.data);
      setLoaded({ ...loaded, prefs: r.prefs });
      setDraft(draftOf(r.prefs));
      notify('info', 'Saved: the hub tells you this way from now on.');
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="panel" data-testid="hub-notify-me">
      <h2>My notifications</h2>
      <p className="hint">
        Where the hub tells you of requests that start waiting, and when it reminds you. You choose
        among the channels the hub&apos;s admin turned on
        {loaded.offered.length ? '' : ' (none yet: the desktop notices below still work)'}.
      </p>
      <form
        className="hub-notify-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          Channel{' '}
          <select
            data-testid="hub-notify-kind"
            value={draft.kind}
            onChange={(e) => set({ kind: e.target.value as Draft['kind'] })}
          >
            <option value="none">none</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {CHANNEL_LABELS[k]}
                {loaded.offered.includes(k) ? '' : ' (turned off on the hub)'}
              </option>
            ))}
          </select>
        </label>
        {draft.kind === 'ntfy' && (
          <label>
            Topic{' '}
            <input
              data-testid="hub-notify-topic"
              value={draft.topic}
              onChange={(e) => set({ topic: e.target.value })}
            />
          </label>
        )}
        {draft.kind === 'email' && (
          <label>
            Address{' '}
            <input
              type="email"
              data-testid="hub-notify-email"
              value={draft.to}
              onChange={(e) => set({ to: e.target.value })}
            />
          </label>
        )}
        {draft.kind === 'webhook' && (
          <>
            <label>
              URL{' '}
              <input
                type="url"
                data-testid="hub-notify-webhook"
                value={draft.url}
                onChange={(e) => set({ url: e.target.value })}
              />
            </label>
            <label>
              Signing key{' '}
              <input
                type="password"
                autoComplete="off"
                data-testid="hub-notify-webhook-secret"
                value={draft.secret}
                onChange={(e) => set({ secret: e.target.value })}
              />
            </label>
          </>
        )}
        <label className="inline">
          <input
            type="checkbox"
            data-testid="hub-notify-desktop"
            checked={draft.desktop}
            onChange={(e) => set({ desktop: e.target.checked })}
          />{' '}
          Also on the desktop of my machines (those joined with me as owner)
        </label>
        <label className="inline">
          <input
            type="checkbox"
            data-testid="hub-notify-new"
            checked={draft.newRequests}
            onChange={(e) => set({ newRequests: e.target.checked })}
          />{' '}
          Tell me of each request that starts waiting
        </label>
        <label>
          Remind me after{' '}
          <input
            type="number"
            min={1}
            max={7 * 24 * 60}
            data-testid="hub-notify-remind"
            value={draft.remind}
            placeholder="never"
            onChange={(e) => set({ remind: e.target.value })}
          />{' '}
          minutes of waiting
        </label>
        {problem && (
          <p className="error" role="alert" data-testid="hub-notify-error">
            {problem}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button" data-testid="hub-notify-save" disabled={saving}>
            Save
          </button>
        </div>
      </form>
    </section>
  );
}
