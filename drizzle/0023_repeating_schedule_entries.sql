ALTER TABLE "schedule_entries" ADD COLUMN "recurrence" text;--> statement-breakpoint
ALTER TABLE "schedule_entries" ADD COLUMN "series_end_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schedule_entries" ADD COLUMN "taken_out" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "schedule_entries" ADD CONSTRAINT "schedule_entries_series_end" CHECK ("schedule_entries"."recurrence" is not null or "schedule_entries"."series_end_at" is null);--> statement-breakpoint
ALTER TABLE "schedule_entries" ADD CONSTRAINT "schedule_entries_taken_out_array" CHECK (jsonb_typeof("schedule_entries"."taken_out") = 'array');