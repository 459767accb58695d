-- Single sign-on with OpenID Connect. One row of settings for the whole hub (every replica
-- reads it); the client secret is kept here, like the admin token's hash, and no API returns it.
-- `new_people`: who a first sign-in may be: `invite` (only people an admin pre-made with their
-- email), or anyone the provider signs in, made `viewer` or `approver`.
CREATE TABLE hub_oidc_config (
  id            INT PRIMARY KEY CHECK (id = 1),
  provider_name TEXT NOT NULL,
  issuer        TEXT NOT NULL,
  client_id     TEXT NOT NULL,
  client_secret TEXT NOT NULL,
  groups_claim  TEXT NOT NULL,
  scopes        TEXT NOT NULL,
  new_people    TEXT NOT NULL CHECK (new_people IN ('invite', 'viewer', 'approver')),
  admin_group   TEXT,
  updated_at    BIGINT NOT NULL
);

-- Sign-ins under way: the browser holds a random binding id in a short-lived cookie, kept here
-- by its hash with the state, nonce and PKCE verifier of its authorization request. A callback
-- spends its row once, so a replayed callback or one opened in another browser finds nothing.
CREATE TABLE oidc_logins (
  binding_hash  TEXT PRIMARY KEY,
  state         TEXT NOT NULL,
  nonce         TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  created_at    BIGINT NOT NULL,
  expires_at    BIGINT NOT NULL
);

-- Who a provider's account is on the hub: linked by (issuer, sub) at the first sign-in and
-- never by a name or an email again. `base_role` is the role the person has without the admin
-- group, so leaving that group at the provider takes admin away at the next sign-in.
CREATE TABLE oidc_identities (
  issuer          TEXT NOT NULL,
  subject         TEXT NOT NULL,
  person_id       TEXT NOT NULL UNIQUE REFERENCES people (person_id) ON DELETE CASCADE,
  base_role       TEXT NOT NULL CHECK (base_role IN ('admin', 'approver', 'viewer')),
  created_at      BIGINT NOT NULL,
  last_sign_in_at BIGINT NOT NULL,
  PRIMARY KEY (issuer, subject)
);

-- People an admin made for single sign-on before they signed in: the first sign-in whose
-- provider says this email is verified takes the person, once.
CREATE TABLE oidc_invites (
  email      TEXT PRIMARY KEY,
  person_id  TEXT NOT NULL UNIQUE REFERENCES people (person_id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL
);
