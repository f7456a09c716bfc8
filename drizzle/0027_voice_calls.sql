CREATE TABLE "voice_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"notification_id" bigint NOT NULL,
	"page_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"call_sid" text NOT NULL,
	"status" text NOT NULL,
	"answered_by" text,
	"step_index" integer,
	"key" text,
	"outcome" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_channel_check";--> statement-breakpoint
ALTER TABLE "voice_calls" ADD CONSTRAINT "voice_calls_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_calls" ADD CONSTRAINT "voice_calls_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_calls" ADD CONSTRAINT "voice_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "voice_calls_call_sid_key" ON "voice_calls" USING btree ("call_sid");--> statement-breakpoint
CREATE INDEX "voice_calls_notification_idx" ON "voice_calls" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "voice_calls_page_idx" ON "voice_calls" USING btree ("page_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_channel_check" CHECK ("notifications"."channel" in ('email', 'sms', 'voice', 'chat', 'token-sync', 'push'));