CREATE TABLE "shift_baselines" (
	"id" serial PRIMARY KEY NOT NULL,
	"rotation_id" integer NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"shifts" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shift_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"rotation_id" integer NOT NULL,
	"event_key" text NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dismissed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "shift_baselines" ADD CONSTRAINT "shift_baselines_rotation_id_rotations_id_fk" FOREIGN KEY ("rotation_id") REFERENCES "public"."rotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shift_notices" ADD CONSTRAINT "shift_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shift_notices" ADD CONSTRAINT "shift_notices_rotation_id_rotations_id_fk" FOREIGN KEY ("rotation_id") REFERENCES "public"."rotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shift_baselines_rotation_key" ON "shift_baselines" USING btree ("rotation_id");--> statement-breakpoint
CREATE INDEX "shift_baselines_due_idx" ON "shift_baselines" USING btree ("due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shift_notices_user_event_key" ON "shift_notices" USING btree ("user_id","event_key");--> statement-breakpoint
CREATE INDEX "shift_notices_user_idx" ON "shift_notices" USING btree ("user_id","created_at");