-- The outbox's doorbell (issue 36, decision 274): a statement that adds notifications sends one
-- NOTIFY on 'baton_outbox' naming their channels, so every instance's outbox hears of them at
-- commit (never before, never after a rollback) and sends at once instead of at its next poll.
-- One statement-level trigger with a transition table: a batch of rows is one notification.
CREATE FUNCTION "baton_ring_outbox"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  channels text;
BEGIN
  SELECT string_agg(DISTINCT channel, ',') INTO channels FROM new_rows;
  IF channels IS NOT NULL THEN
    PERFORM pg_notify('baton_outbox', channels);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "notifications_ring_outbox" AFTER INSERT ON "notifications" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_ring_outbox();
