ALTER TABLE "rotations" ADD COLUMN "turn_user_id" integer;--> statement-breakpoint
ALTER TABLE "rotations" ADD CONSTRAINT "rotations_turn_user_id_users_id_fk" FOREIGN KEY ("turn_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Decision 256: existing rotations go on from their holder, as they did.
UPDATE "rotations" SET "turn_user_id" = "holder_user_id" WHERE "holder_user_id" IS NOT NULL;
