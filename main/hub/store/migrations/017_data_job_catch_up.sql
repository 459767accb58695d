-- The time through which the stored-secrets job looked again at rows written after it began
-- (main/hub/stored-secrets-catch-up.ts): a replica of an older version, still serving during
-- a rolling upgrade, stores what it receives unmasked, anywhere in a table's key order.
ALTER TABLE hub_data_jobs ADD COLUMN caught_up_to BIGINT;
