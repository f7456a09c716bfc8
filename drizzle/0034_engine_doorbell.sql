-- The engine's doorbell (issue 36, decision 275): a statement that opens an incident or starts,
-- skips or ends one of its steps sends one NOTIFY on 'baton_engine', so every instance's engine
-- hears of it at commit and looks again at when its next step falls due, instead of at its next
-- tick. One statement-level trigger: a batch of rows is one notification.
CREATE FUNCTION "baton_ring_engine"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('baton_engine', 'incidents');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "pages_ring_engine" AFTER INSERT OR UPDATE OF "step_started_at", "step_index", "step_skipped", "status", "exhausted_at", "policy" ON "pages" FOR EACH STATEMENT EXECUTE FUNCTION baton_ring_engine();
