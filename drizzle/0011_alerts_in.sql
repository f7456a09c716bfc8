CREATE TABLE "alert_keys" (
	"integration_id" integer NOT NULL,
	"dedup_key_hash" text NOT NULL,
	"page_id" integer,
	"last_alert_id" bigint,
	"last_event_hash" text,
	"last_seen_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "alert_keys_integration_id_dedup_key_hash_pk" PRIMARY KEY("integration_id","dedup_key_hash")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"page_id" integer,
	"format" text NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"dedup_key_hash" text NOT NULL,
	"event_hash" text NOT NULL,
	"severity" text,
	"event_enc" text NOT NULL,
	"payload_enc" text NOT NULL,
	"payload_cut" boolean DEFAULT false NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"seen_count" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "alerts_action_check" CHECK ("alerts"."action" in ('trigger', 'acknowledge', 'resolve'))
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"rotation_id" integer,
	"escalation_policy_id" integer,
	"key_hash" text NOT NULL,
	"key_hint" text NOT NULL,
	"grouping" text DEFAULT 'group' NOT NULL,
	"email_dedup" text DEFAULT 'subject' NOT NULL,
	"urgency" text DEFAULT 'severity' NOT NULL,
	"storm_limit" integer DEFAULT 20 NOT NULL,
	"rate_limit" integer DEFAULT 50 NOT NULL,
	"signing_secret_enc" text,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"key_regenerated_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "integrations_target_check" CHECK (("integrations"."rotation_id" is null) <> ("integrations"."escalation_policy_id" is null)),
	CONSTRAINT "integrations_name_check" CHECK (char_length("integrations"."name") between 1 and 100),
	CONSTRAINT "integrations_grouping_check" CHECK ("integrations"."grouping" in ('group', 'fingerprint')),
	CONSTRAINT "integrations_email_dedup_check" CHECK ("integrations"."email_dedup" in ('subject', 'message')),
	CONSTRAINT "integrations_urgency_check" CHECK ("integrations"."urgency" in ('severity', 'high', 'low')),
	CONSTRAINT "integrations_limits_check" CHECK ("integrations"."storm_limit" >= 1 and "integrations"."rate_limit" >= 1)
);
--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "integration_id" integer;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "alert_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "last_alert_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "storm" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_keys" ADD CONSTRAINT "alert_keys_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_keys" ADD CONSTRAINT "alert_keys_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_rotation_id_rotations_id_fk" FOREIGN KEY ("rotation_id") REFERENCES "public"."rotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_escalation_policy_id_escalation_policies_id_fk" FOREIGN KEY ("escalation_policy_id") REFERENCES "public"."escalation_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_keys_page_idx" ON "alert_keys" USING btree ("page_id") WHERE "alert_keys"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_integration_idx" ON "alerts" USING btree ("integration_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_page_idx" ON "alerts" USING btree ("page_id","id" DESC NULLS LAST) WHERE "alerts"."page_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_key_hash_key" ON "integrations" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "integrations_rotation_idx" ON "integrations" USING btree ("rotation_id");--> statement-breakpoint
CREATE INDEX "integrations_policy_idx" ON "integrations" USING btree ("escalation_policy_id");--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pages_integration_idx" ON "pages" USING btree ("integration_id","created_at" DESC NULLS LAST) WHERE "pages"."integration_id" is not null;