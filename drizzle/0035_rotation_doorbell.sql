-- The engine's doorbell for the rotations' clocks (issue 36, decision 278): a statement that
-- moves a rotation's next change (its boundary or window edge), suspends or resumes it, changes
-- its kind or layers, or starts, moves or ends a coverage window tells every instance's engine at
-- commit, which looks again at when its next handoff falls due instead of waiting for its next
-- tick. Row triggers with a WHEN: an update that sets a column to the value it had rings nothing,
-- and PostgreSQL sends one notification per transaction however many rows ring.
CREATE OR REPLACE FUNCTION "baton_ring_engine"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('baton_engine', CASE TG_TABLE_NAME WHEN 'pages' THEN 'incidents' ELSE TG_TABLE_NAME END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "rotations_ring_engine_insert" AFTER INSERT ON "rotations" FOR EACH ROW EXECUTE FUNCTION baton_ring_engine();
--> statement-breakpoint
CREATE TRIGGER "rotations_ring_engine_update" AFTER UPDATE ON "rotations" FOR EACH ROW
  WHEN (OLD.next_handoff_at IS DISTINCT FROM NEW.next_handoff_at
     OR OLD.suspended IS DISTINCT FROM NEW.suspended
     OR OLD.type IS DISTINCT FROM NEW.type
     OR OLD.layers IS DISTINCT FROM NEW.layers)
  EXECUTE FUNCTION baton_ring_engine();
--> statement-breakpoint
CREATE TRIGGER "coverage_requests_ring_engine_insert" AFTER INSERT ON "coverage_requests" FOR EACH ROW EXECUTE FUNCTION baton_ring_engine();
--> statement-breakpoint
CREATE TRIGGER "coverage_requests_ring_engine_update" AFTER UPDATE ON "coverage_requests" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
     OR OLD.start_at IS DISTINCT FROM NEW.start_at
     OR OLD.end_at IS DISTINCT FROM NEW.end_at)
  EXECUTE FUNCTION baton_ring_engine();
