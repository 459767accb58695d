-- Passkeys (WebAuthn credentials) of people on the team dashboard. The credential id and the
-- public key are base64url as the browser and the library give them; `counter` is the
-- authenticator's signature counter, which must grow (a clone of the authenticator shows an
-- older one); `transports` are the browser's hints, comma-separated.
CREATE TABLE passkeys (
  credential_id TEXT PRIMARY KEY,
  person_id     TEXT NOT NULL REFERENCES people (person_id) ON DELETE CASCADE,
  public_key    TEXT NOT NULL,
  counter       BIGINT NOT NULL,
  transports    TEXT NOT NULL DEFAULT '',
  created_at    BIGINT NOT NULL,
  last_used_at  BIGINT
);
CREATE INDEX passkeys_by_person ON passkeys (person_id);

-- Challenges the hub handed out for a passkey ceremony, each spent once (deleted) by whichever
-- replica receives the answer. Registration and step-up are bound to the browser session that
-- asked; a sign-in challenge is bound to nobody.
CREATE TABLE passkey_challenges (
  challenge    TEXT PRIMARY KEY,
  purpose      TEXT NOT NULL CHECK (purpose IN ('register', 'sign_in', 'step_up')),
  session_hash TEXT,
  created_at   BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL
);

-- When the session was confirmed with a passkey (signed in with one, stepped up, or an admin's
-- first passkey registered on it): an admin's session needs it before any admin action.
ALTER TABLE browser_sessions ADD COLUMN passkey_at BIGINT;
