CREATE TABLE "change_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"entity_id" integer,
	"rotation_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "destinations" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"url_enc" text NOT NULL,
	"url_hint" text NOT NULL,
	"secret_enc" text,
	"rotation_id" integer,
	"escalation_policy_id" integer,
	"integration_id" integer,
	"events" jsonb NOT NULL,
	"digest_time" text,
	"digest_time_zone" text,
	"failing_since" timestamp with time zone,
	"failing_told_at" timestamp with time zone,
	"last_delivered_at" timestamp with time zone,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "destinations_kind_check" CHECK ("destinations"."kind" in ('slack', 'mattermost', 'discord', 'teams', 'webhook')),
	CONSTRAINT "destinations_target_check" CHECK (num_nonnulls("destinations"."rotation_id", "destinations"."escalation_policy_id", "destinations"."integration_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_channel_check";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "destination_id" integer;--> statement-breakpoint
ALTER TABLE "destinations" ADD CONSTRAINT "destinations_rotation_id_rotations_id_fk" FOREIGN KEY ("rotation_id") REFERENCES "public"."rotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "destinations" ADD CONSTRAINT "destinations_escalation_policy_id_escalation_policies_id_fk" FOREIGN KEY ("escalation_policy_id") REFERENCES "public"."escalation_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "destinations" ADD CONSTRAINT "destinations_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "destinations" ADD CONSTRAINT "destinations_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_events_created_idx" ON "change_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "destinations_rotation_idx" ON "destinations" USING btree ("rotation_id");--> statement-breakpoint
CREATE INDEX "destinations_policy_idx" ON "destinations" USING btree ("escalation_policy_id");--> statement-breakpoint
CREATE INDEX "destinations_integration_idx" ON "destinations" USING btree ("integration_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_destination_id_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."destinations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_destination_idx" ON "notifications" USING btree ("destination_id","created_at") WHERE "notifications"."destination_id" is not null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_destination_check" CHECK (("notifications"."channel" = 'chat') = ("notifications"."destination_id" is not null));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_channel_check" CHECK ("notifications"."channel" in ('email', 'sms', 'chat'));