-- Who may decide what on the hub, how many must agree, and who is paged when nobody answers.
--
-- A decision rule matches a published request by its action, its risk (at least), its
-- project, its machine and its agent (NULL: any), and names the groups whose members may
-- decide it, how many approvals it needs, whether the machine's owner is left out, and after
-- how long without a decision it escalates to another group. When several rules match, the
-- strictest applies (most approvals; then the oldest), so a new, looser rule never widens one
-- that is there.
CREATE TABLE decision_rules (
  rule_id           TEXT PRIMARY KEY,
  action            TEXT,
  min_risk          TEXT CHECK (min_risk IN ('low', 'medium', 'high', 'critical')),
  project           TEXT,
  machine           TEXT,
  agent             TEXT,
  groups            TEXT[] NOT NULL,
  approvals         INT NOT NULL DEFAULT 1 CHECK (approvals BETWEEN 1 AND 10),
  exclude_owner     BOOLEAN NOT NULL DEFAULT FALSE,
  escalate_after_ms BIGINT CHECK (escalate_after_ms > 0),
  escalate_to       TEXT,
  created_at        BIGINT NOT NULL,
  CHECK ((escalate_after_ms IS NULL) = (escalate_to IS NULL))
);

-- Each person's vote on a request under a rule: one per person (the key), whichever channel
-- or replica it came through, so a double click or a second channel counts once. A denial is
-- a vote too: one denies the request.
CREATE TABLE request_votes (
  machine_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  person_id  TEXT NOT NULL,
  person     TEXT NOT NULL,
  vote       TEXT NOT NULL CHECK (vote IN ('approve', 'deny')),
  channel    TEXT NOT NULL,
  rule_id    TEXT NOT NULL,
  at         BIGINT NOT NULL,
  PRIMARY KEY (machine_id, request_id, person_id)
);

-- A request that escalated: once (the key), so each replica's expiry round pages at most once.
CREATE TABLE request_escalations (
  machine_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  rule_id    TEXT NOT NULL,
  to_group   TEXT NOT NULL,
  at         BIGINT NOT NULL,
  paged_at   BIGINT,
  PRIMARY KEY (machine_id, request_id)
);

-- Who owns a machine: the person the admin named at invite (`--owner`), kept with the
-- machine when it joins. A rule may leave the owner out of those who can approve its requests.
ALTER TABLE join_codes ADD COLUMN owner TEXT;
ALTER TABLE machines ADD COLUMN owner TEXT;
