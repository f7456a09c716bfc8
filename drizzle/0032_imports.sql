CREATE TABLE "import_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"account" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"baton_id" integer NOT NULL,
	"import_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_links_kind_check" CHECK ("import_links"."kind" in ('person', 'rotation', 'policy', 'integration', 'cover'))
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"account" text NOT NULL,
	"status" text DEFAULT 'planned' NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"window_from" timestamp with time zone NOT NULL,
	"window_to" timestamp with time zone NOT NULL,
	"snapshot_enc" text NOT NULL,
	"plan_enc" text NOT NULL,
	CONSTRAINT "imports_status_check" CHECK ("imports"."status" in ('planned', 'applied'))
);
--> statement-breakpoint
ALTER TABLE "import_links" ADD CONSTRAINT "import_links_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "import_links_source_key" ON "import_links" USING btree ("source","account","kind","source_id");--> statement-breakpoint
CREATE INDEX "imports_created_at_idx" ON "imports" USING btree ("created_at");