import { useState } from 'react';
import { useApi } from '../api-context';

/**
 * Saves a session's Markdown report (timeline, requests and decisions, breaker trips, spend,
 * what is still waiting, next steps) as a file, for whoever picks the work up.
 */
export function ReportDownload({ sessionId }: { sessionId: string }) {
  const api = useApi();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const download = async (): Promise<void> => {
    setBusy(true);
    setProblem(undefined);
    try {
      const { markdown, filename } = await api.getSessionReport(sessionId);
      const url = URL.createObjectURL(new Blob([markdown], { type: 'text/markdown' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      link.click();
      // The click has handed the blob to the download; the URL is no longer needed.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="report-download">
      <button
        type="button"
        id="session-report-download"
        data-testid="session-report-download"
        className="button subtle"
        disabled={busy}
        onClick={() => void download()}
      >
        Download report (Markdown)
      </button>
      {problem && (
        <span className="error" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
