-- A data job keeps the count of the rows it left on purpose, and only the first 200 of their
-- numbers (main/hub/stored-secrets-job.ts names those in its audit entry): the whole list grew
-- with each batch and was written again with each, on a hub with many such rows. A job half
-- way through keeps its count, and its list is cut to those it names.
ALTER TABLE hub_data_jobs ADD COLUMN kept_count BIGINT NOT NULL DEFAULT 0;
UPDATE hub_data_jobs SET
  kept_count = jsonb_array_length(kept),
  kept = (
    SELECT COALESCE(jsonb_agg(element ORDER BY place), '[]'::jsonb)
    FROM jsonb_array_elements(kept) WITH ORDINALITY AS listed(element, place)
    WHERE place <= 200
  );
