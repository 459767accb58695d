-- A record no one can quietly rewrite, on the hub.
--
-- The hub's own audit is chained: each row's `hash` is SHA-256 of the row before it and the
-- row itself (main/audit/audit-chain.ts, the same code the machines use), written under an
-- advisory lock so every replica appends to one chain. Rows written before this migration have
-- no hash: the chain starts after them.
ALTER TABLE audit ADD COLUMN hash TEXT;

-- The chain's head, signed at intervals and at stop with the hub's own key (hub_identity).
CREATE TABLE hub_audit_checkpoints (
  seq        BIGINT PRIMARY KEY,
  hash       TEXT NOT NULL,
  at         BIGINT NOT NULL,
  through_at BIGINT NOT NULL,
  entries    BIGINT NOT NULL,
  public_key TEXT NOT NULL,
  signature  TEXT NOT NULL
);

-- Each machine's audit key, pinned the first time one of its checkpoints arrives: a later
-- checkpoint signed by another key is refused (and audited), never taken as a new pin.
CREATE TABLE machine_audit_keys (
  machine_id TEXT PRIMARY KEY REFERENCES machines (machine_id),
  public_key TEXT NOT NULL,
  pinned_at  BIGINT NOT NULL
);

-- The machines' signed checkpoints, each kept once, as first received: a machine whose chain
-- was rewritten later cannot replace the hub's copy.
CREATE TABLE machine_audit_checkpoints (
  machine_id  TEXT NOT NULL REFERENCES machines (machine_id),
  seq         BIGINT NOT NULL,
  hash        TEXT NOT NULL,
  at          BIGINT NOT NULL,
  through_at  BIGINT NOT NULL,
  entries     BIGINT NOT NULL,
  signature   TEXT NOT NULL,
  received_at BIGINT NOT NULL,
  PRIMARY KEY (machine_id, seq)
);
