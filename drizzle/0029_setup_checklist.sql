CREATE TABLE "setup_checklists" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"dismissed_at" timestamp with time zone,
	"test_page_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "setup_checklists" ADD CONSTRAINT "setup_checklists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;