-- The history of `gatehouse --hub URL list` pages newest first by keyset (arrival, then request
-- and machine id in byte order): this index serves each page without sorting every request.
CREATE INDEX requests_newest ON requests (created_at, request_id COLLATE "C", machine_id COLLATE "C");
