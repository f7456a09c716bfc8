CREATE TABLE "token_syncs" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_token_hash" text,
	"source" text NOT NULL,
	"id_token_enc" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"refresh_token_enc" text,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "token_syncs_source_check" CHECK ("token_syncs"."source" in ('oidc', 'firebase'))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_channel_check";--> statement-breakpoint
ALTER TABLE "token_syncs" ADD CONSTRAINT "token_syncs_session_token_hash_sessions_token_hash_fk" FOREIGN KEY ("session_token_hash") REFERENCES "public"."sessions"("token_hash") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "token_syncs_session_key" ON "token_syncs" USING btree ("session_token_hash");--> statement-breakpoint
CREATE INDEX "token_syncs_open_idx" ON "token_syncs" USING btree ("issued_at") WHERE "token_syncs"."ended_at" is null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_channel_check" CHECK ("notifications"."channel" in ('email', 'sms', 'chat', 'token-sync'));