ALTER TABLE "integrations" ADD COLUMN "source" text DEFAULT 'generic' NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_source_check" CHECK ("integrations"."source" in ('alertmanager', 'grafana', 'pagerduty', 'opsgenie', 'email', 'generic'));--> statement-breakpoint
-- Decision 260: an existing integration is for the tool that sent its latest alert (the screen's
-- test alert aside), or generic when none has.
UPDATE "integrations" SET "source" = (
  SELECT "alerts"."format" FROM "alerts"
  WHERE "alerts"."integration_id" = "integrations"."id" AND "alerts"."format" <> 'test'
  ORDER BY "alerts"."id" DESC LIMIT 1
) WHERE EXISTS (
  SELECT 1 FROM "alerts"
  WHERE "alerts"."integration_id" = "integrations"."id" AND "alerts"."format" <> 'test'
);
