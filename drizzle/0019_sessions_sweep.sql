CREATE INDEX "pages_open_status_idx" ON "pages" USING btree ("status") WHERE "pages"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "sessions_idle_expires_idx" ON "sessions" USING btree ("idle_expires_at");--> statement-breakpoint
CREATE INDEX "sessions_absolute_expires_idx" ON "sessions" USING btree ("absolute_expires_at");