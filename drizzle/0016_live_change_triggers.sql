-- Live updates (issue 19, decision 220): every change a screen shows writes a change_events row
-- and a NOTIFY on 'baton_changes' in the transaction that made it, whoever made it (a route, the
-- engine, another instance, a script), so listeners hear of it at commit and never before, and
-- not at all after a rollback. Statement-level triggers with transition tables: one statement
-- that changes many rows (a reorder, an engine batch) writes one event per entity, not per row.
-- Not on alerts, alert_keys, notifications, audit_events or rate_limit_hits: the hot paths of
-- alert intake and the outbox pay nothing; the screens that show those poll.
--
-- created_at is the insert's own time (clock_timestamp), not the transaction's start: the
-- replay after a reconnect reaches back a margin before the last event seen, for an earlier id
-- whose transaction committed later, and that margin then only has to cover insert to commit.
--
-- TG_ARGV: [0] the event's kind, [1] the column that names the entity ('' for none),
-- [2] the column that names its rotation ('' for none). The transition table is always called
-- changed_rows: the new rows of an INSERT or UPDATE, the old rows of a DELETE.
CREATE FUNCTION "baton_note_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  FOR payload IN
    WITH changed AS (
      SELECT DISTINCT
        CASE WHEN TG_ARGV[1] = '' THEN NULL ELSE (to_jsonb(r) ->> TG_ARGV[1])::integer END AS entity_id,
        CASE WHEN TG_ARGV[2] = '' THEN NULL ELSE (to_jsonb(r) ->> TG_ARGV[2])::integer END AS rotation_id
      FROM changed_rows r
    ), written AS (
      INSERT INTO change_events (kind, entity_id, rotation_id, created_at)
      SELECT TG_ARGV[0], entity_id, rotation_id, clock_timestamp() FROM changed ORDER BY entity_id, rotation_id
      RETURNING id, kind, entity_id, rotation_id
    )
    -- A NOTIFY payload holds under 8,000 bytes: 40 events (about 80 bytes each) a notification.
    SELECT json_agg(json_build_object('id', id, 'kind', kind, 'entityId', entity_id, 'rotationId', rotation_id) ORDER BY id)::text
    FROM (SELECT written.*, (row_number() OVER (ORDER BY id) - 1) / 40 AS chunk FROM written) numbered
    GROUP BY chunk
    ORDER BY chunk
  LOOP
    PERFORM pg_notify('baton_changes', payload);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "rotations_changes_ins" AFTER INSERT ON "rotations" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('rotation', 'id', 'id');--> statement-breakpoint
CREATE TRIGGER "rotations_changes_upd" AFTER UPDATE ON "rotations" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('rotation', 'id', 'id');--> statement-breakpoint
CREATE TRIGGER "rotations_changes_del" AFTER DELETE ON "rotations" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('rotation', 'id', 'id');--> statement-breakpoint
CREATE TRIGGER "rotation_members_changes_ins" AFTER INSERT ON "rotation_members" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('rotation', 'rotation_id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "rotation_members_changes_upd" AFTER UPDATE ON "rotation_members" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('rotation', 'rotation_id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "rotation_members_changes_del" AFTER DELETE ON "rotation_members" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('rotation', 'rotation_id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "schedule_entries_changes_ins" AFTER INSERT ON "schedule_entries" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('rotation', 'rotation_id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "schedule_entries_changes_upd" AFTER UPDATE ON "schedule_entries" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('rotation', 'rotation_id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "schedule_entries_changes_del" AFTER DELETE ON "schedule_entries" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('rotation', 'rotation_id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "handoffs_changes_ins" AFTER INSERT ON "handoffs" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('handoff', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "handoffs_changes_upd" AFTER UPDATE ON "handoffs" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('handoff', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "handoffs_changes_del" AFTER DELETE ON "handoffs" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('handoff', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "coverage_requests_changes_ins" AFTER INSERT ON "coverage_requests" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('coverage', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "coverage_requests_changes_upd" AFTER UPDATE ON "coverage_requests" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('coverage', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "coverage_requests_changes_del" AFTER DELETE ON "coverage_requests" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('coverage', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "pages_changes_ins" AFTER INSERT ON "pages" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('incident', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "pages_changes_upd" AFTER UPDATE ON "pages" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('incident', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "pages_changes_del" AFTER DELETE ON "pages" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('incident', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "time_off_changes_ins" AFTER INSERT ON "time_off" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('time-off', 'user_id', '');--> statement-breakpoint
CREATE TRIGGER "time_off_changes_upd" AFTER UPDATE ON "time_off" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('time-off', 'user_id', '');--> statement-breakpoint
CREATE TRIGGER "time_off_changes_del" AFTER DELETE ON "time_off" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('time-off', 'user_id', '');--> statement-breakpoint
CREATE TRIGGER "users_changes_ins" AFTER INSERT ON "users" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('user', 'id', '');--> statement-breakpoint
CREATE TRIGGER "users_changes_upd" AFTER UPDATE ON "users" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('user', 'id', '');--> statement-breakpoint
CREATE TRIGGER "users_changes_del" AFTER DELETE ON "users" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('user', 'id', '');--> statement-breakpoint
-- A signed-out or expired session: the streams re-check their sessions (one event, no id).
CREATE TRIGGER "sessions_changes_del" AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('session', '', '');--> statement-breakpoint
CREATE TRIGGER "escalation_policies_changes_ins" AFTER INSERT ON "escalation_policies" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('escalation-policy', 'id', '');--> statement-breakpoint
CREATE TRIGGER "escalation_policies_changes_upd" AFTER UPDATE ON "escalation_policies" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('escalation-policy', 'id', '');--> statement-breakpoint
CREATE TRIGGER "escalation_policies_changes_del" AFTER DELETE ON "escalation_policies" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('escalation-policy', 'id', '');--> statement-breakpoint
CREATE TRIGGER "integrations_changes_ins" AFTER INSERT ON "integrations" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('integration', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "integrations_changes_del" AFTER DELETE ON "integrations" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('integration', 'id', 'rotation_id');--> statement-breakpoint
-- Not last_used_at: alert intake writes it as keys are used (the card polls for it), so a row
-- trigger with a condition, which costs intake one comparison and no write.
CREATE FUNCTION "baton_note_change_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event record;
BEGIN
  INSERT INTO change_events (kind, entity_id, rotation_id, created_at)
  VALUES (TG_ARGV[0], (to_jsonb(NEW) ->> TG_ARGV[1])::integer, (to_jsonb(NEW) ->> TG_ARGV[2])::integer, clock_timestamp())
  RETURNING id, kind, entity_id, rotation_id INTO event;
  PERFORM pg_notify('baton_changes', json_build_array(json_build_object('id', event.id, 'kind', event.kind, 'entityId', event.entity_id, 'rotationId', event.rotation_id))::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "integrations_changes_upd" AFTER UPDATE ON "integrations" FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at')) EXECUTE FUNCTION baton_note_change_row('integration', 'id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "invitations_changes_ins" AFTER INSERT ON "invitations" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('invitation', 'id', '');--> statement-breakpoint
CREATE TRIGGER "invitations_changes_upd" AFTER UPDATE ON "invitations" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('invitation', 'id', '');--> statement-breakpoint
CREATE TRIGGER "invitations_changes_del" AFTER DELETE ON "invitations" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('invitation', 'id', '');--> statement-breakpoint
-- A shift notice names its person: the stream sends it to that person alone.
CREATE TRIGGER "shift_notices_changes_ins" AFTER INSERT ON "shift_notices" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('shift-notice', 'user_id', 'rotation_id');--> statement-breakpoint
CREATE TRIGGER "shift_notices_changes_upd" AFTER UPDATE ON "shift_notices" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_note_changes('shift-notice', 'user_id', 'rotation_id');