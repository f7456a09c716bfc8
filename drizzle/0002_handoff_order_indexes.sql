DROP INDEX "handoffs_occurred_at_idx";--> statement-breakpoint
DROP INDEX "handoffs_rotation_idx";--> statement-breakpoint
CREATE INDEX "handoffs_occurred_at_idx" ON "handoffs" USING btree ("occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "handoffs_rotation_idx" ON "handoffs" USING btree ("rotation_id","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);