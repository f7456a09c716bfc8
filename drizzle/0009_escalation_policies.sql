CREATE TABLE "escalation_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"repeat" smallint DEFAULT 0 NOT NULL,
	"steps" jsonb NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "escalation_policies_name_check" CHECK (char_length("escalation_policies"."name") between 1 and 220),
	CONSTRAINT "escalation_policies_repeat_check" CHECK ("escalation_policies"."repeat" between 0 and 9),
	CONSTRAINT "escalation_policies_steps_check" CHECK (jsonb_typeof("escalation_policies"."steps") = 'array' and jsonb_array_length("escalation_policies"."steps") between 1 and 20)
);
--> statement-breakpoint
ALTER TABLE "rotations" ADD COLUMN "escalation_policy_id" integer;--> statement-breakpoint
-- Every rotation already there gets its own default policy (decision 202): today's paging flow,
-- as defaultEscalationPolicy (src/shared/domain/escalation.ts) writes it for a new rotation: the
-- holder and the backup, 15 minutes; the holder again (the reminder), 15 minutes; the next on
-- call, 15 minutes; repeat 0. escalation-policies-migration.test.ts compares the two.
INSERT INTO "escalation_policies" ("name", "repeat", "steps", "created_by_id", "created_at", "updated_at")
SELECT r."name" || ' (default)', 0,
       jsonb_build_array(
         jsonb_build_object('delayMinutes', 15, 'assignment', 'everyone', 'activeHours', null,
           'targets', jsonb_build_array(jsonb_build_object('type', 'rotation-holder', 'id', r."id"),
                                        jsonb_build_object('type', 'rotation-backup', 'id', r."id"))),
         jsonb_build_object('delayMinutes', 15, 'assignment', 'everyone', 'activeHours', null,
           'targets', jsonb_build_array(jsonb_build_object('type', 'rotation-holder', 'id', r."id"))),
         jsonb_build_object('delayMinutes', 15, 'assignment', 'everyone', 'activeHours', null,
           'targets', jsonb_build_array(jsonb_build_object('type', 'rotation-next', 'id', r."id")))),
       r."created_by_id", r."created_at", r."created_at"
  FROM "rotations" r
 ORDER BY r."id";--> statement-breakpoint
-- The table is new, so each policy is the default of the rotation its first target names.
UPDATE "rotations" r SET "escalation_policy_id" = p."id"
  FROM "escalation_policies" p
 WHERE (p."steps"->0->'targets'->0->>'id')::int = r."id";--> statement-breakpoint
ALTER TABLE "rotations" ALTER COLUMN "escalation_policy_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "escalation_policies" ADD CONSTRAINT "escalation_policies_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rotations" ADD CONSTRAINT "rotations_escalation_policy_id_escalation_policies_id_fk" FOREIGN KEY ("escalation_policy_id") REFERENCES "public"."escalation_policies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rotations_escalation_policy_idx" ON "rotations" USING btree ("escalation_policy_id");