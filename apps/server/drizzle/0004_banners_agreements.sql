CREATE TABLE "banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"image_url" text NOT NULL,
	"link_url" text,
	"summary" text,
	"content" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"start_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "banners_type_check" CHECK ("banners"."type" in ('banner', 'news')),
	CONSTRAINT "banners_window_check" CHECK ("banners"."end_at" is null or "banners"."start_at" is null or "banners"."end_at" > "banners"."start_at")
);
--> statement-breakpoint
CREATE TABLE "csr_agreements" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"version" text NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "csr_agreements_type_check" CHECK ("csr_agreements"."type" in ('privacy', 'user', 'service'))
);
--> statement-breakpoint
CREATE INDEX "banners_type_sort_idx" ON "banners" USING btree ("type","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "csr_agreements_type_version_key" ON "csr_agreements" USING btree ("type",lower("version"));--> statement-breakpoint
CREATE UNIQUE INDEX "csr_agreements_published_key" ON "csr_agreements" USING btree ("type") WHERE "csr_agreements"."published";