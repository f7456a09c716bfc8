CREATE TABLE "person_limit_sends" (
	"notification_id" bigint PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "person_limit_sends" ADD CONSTRAINT "person_limit_sends_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_limit_sends" ADD CONSTRAINT "person_limit_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "person_limit_sends_user_idx" ON "person_limit_sends" USING btree ("user_id","sent_at");--> statement-breakpoint
-- The texts and calls sent within the last window count from the first decision on (decision 265).
INSERT INTO "person_limit_sends" ("notification_id", "user_id", "sent_at")
SELECT "id", "user_id", "sent_at" FROM "notifications"
WHERE "status" = 'sent' AND "channel" IN ('sms', 'voice') AND "user_id" IS NOT NULL
  AND "sent_at" > now() - interval '15 minutes';
