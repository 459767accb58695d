-- The hub's first schema (issue 23). Times are milliseconds since the epoch (BIGINT), so
-- both drivers read them the same way.

-- The hub's own Ed25519 key: machines pin its public half when they join and check every
-- decision against it. One row, shared by every replica.
CREATE TABLE hub_identity (
  id          INT PRIMARY KEY CHECK (id = 1),
  public_key  TEXT NOT NULL,
  private_key TEXT NOT NULL,
  created_at  BIGINT NOT NULL
);

-- Joined machines. `public_key` is the machine's Ed25519 key (SPKI, base64); a revoked machine
-- is refused from then on. `last_seq` is the last outbox entry of the machine the hub stored:
-- a replayed entry at or below it is acknowledged and dropped.
CREATE TABLE machines (
  machine_id   TEXT PRIMARY KEY,
  name         TEXT NOT NULL UNIQUE,
  public_key   TEXT NOT NULL,
  joined_at    BIGINT NOT NULL,
  revoked_at   BIGINT,
  last_seen_at BIGINT,
  version      TEXT,
  last_seq     BIGINT NOT NULL DEFAULT 0
);

-- Single-use, expiring join codes, kept by their hash (the code itself is shown once).
CREATE TABLE join_codes (
  code_hash    TEXT PRIMARY KEY,
  machine_name TEXT NOT NULL,
  created_at   BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL,
  used_at      BIGINT,
  expired_at   BIGINT
);

-- Requests that asked on a machine, as the machine published them (keyed by its request id).
CREATE TABLE requests (
  machine_id  TEXT NOT NULL REFERENCES machines (machine_id),
  request_id  TEXT NOT NULL,
  status      TEXT NOT NULL,
  record      JSONB NOT NULL,
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL,
  decided_via TEXT,
  PRIMARY KEY (machine_id, request_id)
);
CREATE INDEX requests_waiting ON requests (status, created_at);

-- Decisions people made on the hub: at most one standing per request (the first wins). One the
-- machine refused (expired while it was away, its agent paused) no longer stands: a person may
-- decide again. `payload` is the exact signed text sent to the machine; `outcome` is what the
-- machine answered.
CREATE TABLE decisions (
  decision_id TEXT PRIMARY KEY,
  machine_id  TEXT NOT NULL REFERENCES machines (machine_id),
  request_id  TEXT NOT NULL,
  person      TEXT NOT NULL,
  payload     TEXT NOT NULL,
  signature   TEXT NOT NULL,
  created_at  BIGINT NOT NULL,
  answered_at BIGINT,
  outcome     TEXT,
  detail      TEXT
);
CREATE UNIQUE INDEX decisions_standing ON decisions (machine_id, request_id)
  WHERE outcome IS DISTINCT FROM 'refused';
CREATE INDEX decisions_unanswered ON decisions (machine_id) WHERE answered_at IS NULL;

-- People and their roles; tokens are kept by hash.
CREATE TABLE people (
  person_id  TEXT PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  role       TEXT NOT NULL CHECK (role IN ('admin', 'approver', 'viewer')),
  created_at BIGINT NOT NULL
);
CREATE TABLE person_tokens (
  token_hash TEXT PRIMARY KEY,
  person_id  TEXT NOT NULL REFERENCES people (person_id),
  kind       TEXT NOT NULL CHECK (kind IN ('sign_in', 'personal')),
  created_at BIGINT NOT NULL,
  expires_at BIGINT,
  used_at    BIGINT
);

-- Everything that changed or was refused: joins, revokes, publishes, decisions, refusals.
CREATE TABLE audit (
  seq        BIGSERIAL PRIMARY KEY,
  at         BIGINT NOT NULL,
  type       TEXT NOT NULL,
  actor      TEXT,
  machine_id TEXT,
  request_id TEXT,
  data       JSONB
);
