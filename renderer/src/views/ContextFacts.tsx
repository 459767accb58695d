import { Fragment, useEffect, useState } from 'react';
import { contextFacts } from '../../../shared/context-facts';
import { hasSystemModifier, isTyping } from '../util/keys';
import { AgentText } from '../components/agent-text';

/**
 * What the agent's hook sent along with a request (tool, working dir, permission mode, …) as
 * labelled facts; the raw JSON is one keystroke away (`r`, or the button).
 */
export function ContextFacts({ context }: { context: Record<string, unknown> }) {
  const [raw, setRaw] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'r' || hasSystemModifier(e) || isTyping(e.target)) return;
      e.preventDefault();
      setRaw((v) => !v);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const facts = contextFacts(context);
  return (
    <div className="context-facts">
      {raw ? (
        <pre className="code" data-testid="detail-context-raw">
          <AgentText text={JSON.stringify(context, null, 2)} />
        </pre>
      ) : (
        <dl className="facts compact" data-testid="detail-context">
          {facts.map((f) => (
            <Fragment key={f.key}>
              <dt>{f.label}</dt>
              <dd data-key={f.key}>
                <AgentText text={f.text} />
              </dd>
            </Fragment>
          ))}
        </dl>
      )}
      <button
        type="button"
        className="button subtle"
        id="detail-context-toggle"
        data-testid="detail-context-toggle"
        aria-pressed={raw}
        aria-keyshortcuts="r"
        onClick={() => setRaw((v) => !v)}
      >
        {raw ? 'Readable' : 'Raw JSON'} <kbd>r</kbd>
      </button>
    </div>
  );
}
