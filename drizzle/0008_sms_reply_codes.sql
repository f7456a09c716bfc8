CREATE TABLE "sms_reply_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"phone_hash" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "sms_reply_codes_code_check" CHECK ("sms_reply_codes"."code" ~ '^[0-9]{4}$')
);
--> statement-breakpoint
ALTER TABLE "sms_reply_codes" ADD CONSTRAINT "sms_reply_codes_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_reply_codes" ADD CONSTRAINT "sms_reply_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_reply_codes_open_code_key" ON "sms_reply_codes" USING btree ("phone_hash","code") WHERE "sms_reply_codes"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "sms_reply_codes_page_idx" ON "sms_reply_codes" USING btree ("page_id");