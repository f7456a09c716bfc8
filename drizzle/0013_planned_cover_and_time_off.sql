CREATE TABLE "time_off" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"note_enc" text,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "time_off_end_after_start" CHECK ("time_off"."end_at" > "time_off"."start_at")
);
--> statement-breakpoint
ALTER TABLE "coverage_requests" ADD COLUMN "arranged_by_id" integer;--> statement-breakpoint
ALTER TABLE "time_off" ADD CONSTRAINT "time_off_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_off" ADD CONSTRAINT "time_off_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "time_off_user_idx" ON "time_off" USING btree ("user_id","start_at");--> statement-breakpoint
CREATE INDEX "time_off_end_idx" ON "time_off" USING btree ("end_at");--> statement-breakpoint
ALTER TABLE "coverage_requests" ADD CONSTRAINT "coverage_requests_arranged_by_id_users_id_fk" FOREIGN KEY ("arranged_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;