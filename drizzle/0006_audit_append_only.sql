CREATE TABLE "audit_chain_head" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_chain_head_one_row" CHECK ("audit_chain_head"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_actor_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_chain_seq_key" ON "audit_events" USING btree ("chain_seq");--> statement-breakpoint
-- The audit trail is append-only and hash-chained (decision 172). Hand-written below this line.
-- audit_event_digest is the hash of one event: SHA-256 over a canonical text (a jsonb array, whose
-- text form PostgreSQL prints the same way every time) of every field and the previous hash.
-- Sealed values count as present, not by their ciphertext: a deleted person's name
-- (details.targetNameEnc, decision 132) and a page's escalation reason (details.reasonEnc,
-- decision 163; a reason written in clear before that decision, details.reason, counts the same
-- way, so sealing it at start-up keeps the hash). Key rotation re-seals them, and their own
-- authenticated encryption, bound to the event id, protects their content.
CREATE FUNCTION audit_details_hashed(d jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x ? 'reason' OR x ? 'reasonEnc'
    THEN (x - 'reason' - 'reasonEnc') || '{"reasonEnc": "sealed"}'::jsonb ELSE x END
  FROM (SELECT CASE WHEN d ? 'targetNameEnc'
    THEN jsonb_set(d, '{targetNameEnc}', '"sealed"') ELSE d END AS x) named
$$;
--> statement-breakpoint
CREATE FUNCTION audit_event_digest(e audit_events) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    e.chain_seq, e.id, e.actor_user_id, e.action, e.target_type, e.target_id,
    audit_details_hashed(e.details),
    to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    e.prev_hash
  )::text, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- Chain the events already there, in id order, and start the head after the last one.
DO $$
DECLARE
  r audit_events%ROWTYPE;
  s bigint := 0;
  h text := repeat('0', 64);
BEGIN
  FOR r IN SELECT * FROM audit_events ORDER BY id LOOP
    s := s + 1;
    r.chain_seq := s;
    r.prev_hash := h;
    h := audit_event_digest(r);
    UPDATE audit_events SET chain_seq = s, prev_hash = r.prev_hash, hash = h WHERE id = r.id;
  END LOOP;
  INSERT INTO audit_chain_head (id, seq, hash) VALUES (1, s, h);
END $$;
--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "chain_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "prev_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "hash" SET NOT NULL;--> statement-breakpoint
-- The first insert of a transaction locks the head row until the transaction ends, so inserts from
-- any number of instances form one line. Writers insert their events last in their transactions,
-- so the lock is held briefly. Within the transaction the tip of the chain is kept in a
-- transaction-local setting (bound to the transaction id) and the head row is written once, at
-- commit, by the deferred trigger below: updating one row once per event in one transaction would
-- make each later lookup walk all its versions, quadratic in the events of a bulk insert.
CREATE FUNCTION audit_events_chain() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  xid text := txid_current()::text;
  tip text := coalesce(current_setting('baton.audit_chain_tip', true), '');
  seq bigint;
  prev text;
BEGIN
  IF split_part(tip, ':', 1) = xid THEN
    seq := split_part(tip, ':', 2)::bigint;
    prev := split_part(tip, ':', 3);
  ELSE
    SELECT h.seq, h.hash INTO seq, prev FROM audit_chain_head h WHERE h.id = 1 FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'audit_chain_head has no row: the audit trail cannot be chained';
    END IF;
  END IF;
  NEW.chain_seq := seq + 1;
  NEW.prev_hash := prev;
  NEW.hash := audit_event_digest(NEW);
  PERFORM set_config('baton.audit_chain_tip', xid || ':' || NEW.chain_seq || ':' || NEW.hash, true);
  RETURN NEW;
END $$;
--> statement-breakpoint
-- At commit, the transaction's last event moves the head.
CREATE FUNCTION audit_chain_advance() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.chain_seq::text = split_part(current_setting('baton.audit_chain_tip', true), ':', 2) THEN
    UPDATE audit_chain_head SET seq = NEW.chain_seq, hash = NEW.hash WHERE id = 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- UPDATE, DELETE and TRUNCATE are refused. The one exception is re-sealing: key rotation, and
-- the start-up step that seals escalation reasons kept in clear before decision 163, set
-- baton.audit_reseal for their own transaction, and the update may change nothing the hash
-- covers (nor the chain columns): only sealed values.
CREATE FUNCTION audit_events_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF coalesce(current_setting('baton.audit_reseal', true), '') = 'on'
       AND NEW.id = OLD.id
       AND NEW.chain_seq = OLD.chain_seq
       AND NEW.prev_hash = OLD.prev_hash
       AND NEW.hash = OLD.hash
       AND audit_event_digest(NEW) = OLD.hash THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
    USING HINT = 'The audit trail keeps every event as written (decision 172).';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_events_chain BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_chain();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER audit_events_chain_head AFTER INSERT ON audit_events
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION audit_chain_advance();
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
-- The head changes only through the chain's own trigger (trigger depth 2); it is never deleted.
CREATE FUNCTION audit_chain_head_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_chain_head changes only with an audit event: % refused', TG_OP;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_guard BEFORE UPDATE OR DELETE ON audit_chain_head
  FOR EACH ROW EXECUTE FUNCTION audit_chain_head_guard();
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_no_truncate BEFORE TRUNCATE ON audit_chain_head
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_head_guard();
