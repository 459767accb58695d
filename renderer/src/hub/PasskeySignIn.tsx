import { useState } from 'react';
import { signInWithPasskey } from './passkey-client';

/** The sign-in page's passkey button: signs in, then reloads into the dashboard. */
export function PasskeySignIn() {
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const signIn = async () => {
    setProblem(undefined);
    try {
      await signInWithPasskey();
      window.location.reload();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div className="form-actions" data-testid="hub-passkey-sign-in">
      <button
        type="button"
        className="button"
        data-testid="hub-passkey-sign-in-go"
        onClick={() => void signIn()}
      >
        Sign in with a passkey
      </button>
      {problem && (
        <p className="error" role="alert" data-testid="hub-passkey-sign-in-error">
          {problem}
        </p>
      )}
    </div>
  );
}
