CREATE TABLE "csr_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX "csr_sources_name_key" ON "csr_sources" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "csr_sources_code_key" ON "csr_sources" USING btree (lower("code"));