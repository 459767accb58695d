-- One admin token for the whole hub, kept by its hash: any replica accepts it, whichever host
-- made it. The token itself is written once, 0600, on the host of the replica that made it.
CREATE TABLE hub_admin_token (
  id         INT PRIMARY KEY CHECK (id = 1),
  token_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
