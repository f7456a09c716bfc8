ALTER TABLE "notifications" ADD COLUMN "held" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "working_hours" jsonb;