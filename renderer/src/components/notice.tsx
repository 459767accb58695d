import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { AgentText } from './agent-text';

export interface Notice {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

const NoticeContext = createContext<(kind: Notice['kind'], text: string) => void>(() => undefined);

/**
 * The one place the UI reports what happened ("Approved: push the branch") or what failed.
 * It is an ARIA live region, so screen readers announce it without moving the focus.
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const notify = useCallback((kind: Notice['kind'], text: string) => {
    const id = Date.now() + Math.random();
    setNotices((list) => [...list.slice(-3), { id, kind, text }]);
    setTimeout(
      () => setNotices((list) => list.filter((n) => n.id !== id)),
      kind === 'error' ? 10_000 : 5_000,
    );
  }, []);
  return (
    <NoticeContext.Provider value={notify}>
      {children}
      <div className="notices" role="status" aria-live="polite" data-testid="notices">
        {notices.map((n) => (
          <p key={n.id} className={`notice notice-${n.kind}`} data-kind={n.kind}>
            <AgentText text={n.text} />
          </p>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export const useNotify = () => useContext(NoticeContext);
