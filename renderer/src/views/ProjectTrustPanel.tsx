import { useState } from 'react';
import type { ProjectTrustEntry } from '../../../shared/protocol/trust-methods';
import { useApi } from '../api-context';
import { ErrorNote } from '../components/fields';
import { useNotify } from '../components/notice';
import { useLiveQuery } from '../state/use-query';
import { errorText, formatTime } from '../util/format';
import { AgentText } from '../components/agent-text';
import { visibleText } from '../../../shared/visible-text';

const STATE_TEXT: Record<ProjectTrustEntry['state'], string> = {
  trusted: 'trusted',
  untrusted: 'not trusted',
  edited: 'edited since trusted',
  missing: 'file missing',
  invalid: 'invalid',
};

/**
 * Project policy files (`.gatehouse.toml`) that agents' sessions used: what each would allow
 * without asking and what it restricts. Its promotions apply only once the person trusts the
 * exact content shown here (Trust sends the hash on screen; the daemon refuses if the file
 * changed since). Ignore leaves it untrusted.
 */
export function ProjectTrustPanel() {
  const api = useApi();
  const notify = useNotify();
  const query = useLiveQuery(
    () => api.listPolicyTrust(),
    [api],
    (e) => e.type === 'policy.untrusted' || e.type === 'policy.trust_changed',
  );
  const [ignored, setIgnored] = useState<ReadonlySet<string>>(new Set());

  const trust = async (p: ProjectTrustEntry) => {
    if (!p.sha256) return;
    try {
      await api.trustPolicy({ dir: p.dir, sha256: p.sha256, via: 'dashboard' });
      notify('info', `Trusted ${p.file}`);
      query.reload();
    } catch (error) {
      notify('error', `Not trusted: ${errorText(error)}`);
      query.reload();
    }
  };
  const untrust = async (p: ProjectTrustEntry) => {
    try {
      await api.untrustPolicy({ dir: p.dir, via: 'dashboard' });
      notify('info', `No longer trusted: ${p.file}`);
      query.reload();
    } catch (error) {
      notify('error', `Trust not withdrawn: ${errorText(error)}`);
    }
  };

  const projects = query.data?.projects ?? [];
  return (
    <section
      className="settings-section"
      aria-labelledby="section-project-trust"
      data-testid="project-trust-panel"
    >
      <h3 id="section-project-trust">Project policy files</h3>
      <p className="hint">
        A project&apos;s .gatehouse.toml restricts at once. What it would allow without asking
        applies only after you trust its exact content; any edit voids the trust.
      </p>
      <ErrorNote error={query.error} />
      {query.data && projects.length === 0 && (
        <p className="empty">No project policy files seen yet.</p>
      )}
      {projects.map((p) => {
        const key = `${p.dir}\u0000${p.sha256 ?? ''}`;
        const asks =
          (p.state === 'untrusted' || p.state === 'edited') &&
          !!p.summary?.allows.length &&
          !ignored.has(key);
        const short = p.sha256?.slice(0, 12) ?? 'none';
        return (
          <article
            key={p.dir}
            className="card project-trust-card"
            data-testid="project-trust-card"
            data-project={p.dir}
            data-state={p.state}
          >
            <p>
              <code>
                <AgentText text={p.file} />
              </code>{' '}
              <span className="badge">{STATE_TEXT[p.state]}</span>
            </p>
            {p.error && (
              <p className="hint">
                <AgentText text={p.error} />
              </p>
            )}
            {asks && (
              <div data-testid="project-trust-prompt">
                <p>
                  This policy would allow{' '}
                  <AgentText text={p.summary!.allows.join('; ')} testId="project-trust-allows" />.
                  {p.state === 'edited' ? ' It was edited since you trusted it.' : ''}
                </p>
                <p className="hint">sha256 {p.sha256}</p>
                <button
                  type="button"
                  className="button"
                  id={`trust-add-${short}`}
                  data-testid="trust-add"
                  aria-label={`Trust ${visibleText(p.file)}`}
                  onClick={() => void trust(p)}
                >
                  Trust
                </button>{' '}
                <button
                  type="button"
                  className="button subtle"
                  id={`trust-ignore-${short}`}
                  data-testid="trust-ignore"
                  aria-label={`Ignore ${visibleText(p.file)} and leave it untrusted`}
                  onClick={() => setIgnored((s) => new Set([...s, key]))}
                >
                  Ignore
                </button>
              </div>
            )}
            {!!p.summary?.restricts.length && (
              <p data-testid="project-trust-restricts">
                Restricts (always applies): <AgentText text={p.summary.restricts.join('; ')} />
              </p>
            )}
            {p.trustedSha256 && (
              <p>
                {p.state === 'trusted' ? 'Trusted' : 'Other content was trusted'}
                {p.trustedAt ? ` ${formatTime(p.trustedAt)}` : ''}
                {p.trustedVia ? ` via ${p.trustedVia}` : ''}.{' '}
                <button
                  type="button"
                  className="button subtle"
                  id={`trust-remove-${short}`}
                  data-testid="trust-remove"
                  aria-label={`Stop trusting ${p.file}`}
                  onClick={() => void untrust(p)}
                >
                  Untrust
                </button>
              </p>
            )}
          </article>
        );
      })}
    </section>
  );
}
