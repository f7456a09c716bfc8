ALTER TABLE "pages" ALTER COLUMN "message" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "page_id" integer;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "message_enc" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_failed_idx" ON "notifications" USING btree ("failed_at") WHERE "notifications"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "notifications_page_idx" ON "notifications" USING btree ("page_id") WHERE "notifications"."page_id" is not null;--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_message_check" CHECK ("pages"."message_enc" is not null or "pages"."message" is not null);--> statement-breakpoint
UPDATE "notifications" SET "page_id" = "pages"."id" FROM "pages" WHERE "notifications"."dedupe_key" LIKE 'page:%' AND split_part("notifications"."dedupe_key", ':', 2) = "pages"."id"::text;
