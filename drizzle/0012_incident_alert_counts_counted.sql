ALTER TABLE "pages" DROP COLUMN "alert_count";--> statement-breakpoint
ALTER TABLE "pages" DROP COLUMN "last_alert_at";