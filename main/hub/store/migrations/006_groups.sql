-- Groups of people on the hub, and who is in them. A membership comes from one source: made on
-- the hub by an admin (`hub`), or read from the identity provider's groups claim at sign-in
-- (`identity`). A sign-in replaces that person's `identity` memberships only, so a group an
-- admin gave stays when the provider stops naming it, and the reverse.
CREATE TABLE hub_groups (
  name       TEXT PRIMARY KEY,
  created_at BIGINT NOT NULL
);
CREATE TABLE group_members (
  group_name TEXT NOT NULL REFERENCES hub_groups (name) ON DELETE CASCADE,
  person_id  TEXT NOT NULL REFERENCES people (person_id) ON DELETE CASCADE,
  source     TEXT NOT NULL CHECK (source IN ('hub', 'identity')),
  added_at   BIGINT NOT NULL,
  PRIMARY KEY (group_name, person_id, source)
);
CREATE INDEX group_members_by_person ON group_members (person_id);
