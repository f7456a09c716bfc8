ALTER TABLE "pages" ALTER COLUMN "rotation_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "escalation_policies" ADD COLUMN "turns" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "title_enc" text;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "severity" text DEFAULT 'P2' NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "description_enc" text;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "impact_enc" text;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "troubleshooting_enc" text;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "escalation_policy_id" integer;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "policy" jsonb;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "step_index" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "loop" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "step_started_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "step_skipped" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "assignee_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "notified_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "exhausted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "acknowledged_by_id" integer;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "resolved_by_id" integer;--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_escalation_policy_id_escalation_policies_id_fk" FOREIGN KEY ("escalation_policy_id") REFERENCES "public"."escalation_policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_acknowledged_by_id_users_id_fk" FOREIGN KEY ("acknowledged_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pages_open_idx" ON "pages" USING btree ("step_started_at") WHERE "pages"."status" in ('triggered', 'escalated') and "pages"."exhausted_at" is null;--> statement-breakpoint
CREATE INDEX "pages_created_idx" ON "pages" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_severity_check" CHECK ("pages"."severity" in ('P1', 'P2', 'P3'));--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_step_check" CHECK ("pages"."step_index" >= 0 and "pages"."loop" >= 0);--> statement-breakpoint
-- Existing pages become incidents (decision 204): each follows a copy of its rotation's policy as
-- it is now, at the step the page had reached (an escalated page is at the default policy's third
-- step, the next on call), with the person it is with as its assignee. Severity follows urgency
-- as a page raises it: high P1, medium P2, low P3. The title stays null: the message is the title.
UPDATE "pages" pg SET
  "policy" = jsonb_build_object('name', p."name", 'repeat', p."repeat", 'steps', p."steps"),
  "escalation_policy_id" = p."id",
  "severity" = CASE pg."urgency" WHEN 'high' THEN 'P1' WHEN 'medium' THEN 'P2' ELSE 'P3' END,
  "step_index" = CASE WHEN pg."escalated_at" IS NULL THEN 0
                      ELSE least(2, jsonb_array_length(p."steps") - 1) END,
  "step_started_at" = coalesce(pg."escalated_at", pg."created_at"),
  "assignee_ids" = CASE WHEN pg."target_user_id" IS NULL THEN '{}'::integer[]
                        ELSE ARRAY[pg."target_user_id"] END,
  "notified_ids" = CASE WHEN pg."target_user_id" IS NULL THEN '{}'::integer[]
                        ELSE ARRAY[pg."target_user_id"] END,
  "acknowledged_by_id" = CASE WHEN pg."acknowledged_at" IS NULL THEN NULL ELSE pg."target_user_id" END
  FROM "rotations" r JOIN "escalation_policies" p ON p."id" = r."escalation_policy_id"
 WHERE r."id" = pg."rotation_id";--> statement-breakpoint
ALTER TABLE "pages" ALTER COLUMN "policy" SET NOT NULL;