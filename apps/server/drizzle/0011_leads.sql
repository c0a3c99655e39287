CREATE TABLE "csr_capital_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_kind" text NOT NULL,
	"lead_id" integer NOT NULL,
	"content" text NOT NULL,
	"next_follow_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "csr_capital_records_kind_check" CHECK (lead_kind in ('site', 'website'))
);
--> statement-breakpoint
CREATE TABLE "csr_capital_sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"contact_name" text NOT NULL,
	"contact_phone" text NOT NULL,
	"company_name" text,
	"city_code" text,
	"source_id" integer,
	"demand" text,
	"status" text DEFAULT 'new' NOT NULL,
	"owner_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"headcount" integer,
	"area_sqm" double precision,
	"budget_fen" integer,
	"expected_date" text,
	CONSTRAINT "csr_capital_sites_status_check" CHECK (status in ('new', 'following', 'won', 'lost'))
);
--> statement-breakpoint
CREATE TABLE "csr_capital_websites" (
	"id" serial PRIMARY KEY NOT NULL,
	"contact_name" text NOT NULL,
	"contact_phone" text NOT NULL,
	"company_name" text,
	"city_code" text,
	"source_id" integer,
	"demand" text,
	"status" text DEFAULT 'new' NOT NULL,
	"owner_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"property_address" text,
	"property_area_sqm" double precision,
	CONSTRAINT "csr_capital_websites_status_check" CHECK (status in ('new', 'following', 'won', 'lost'))
);
--> statement-breakpoint
ALTER TABLE "csr_capital_records" ADD CONSTRAINT "csr_capital_records_created_by_sso_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sso_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csr_capital_sites" ADD CONSTRAINT "csr_capital_sites_source_id_csr_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."csr_sources"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csr_capital_sites" ADD CONSTRAINT "csr_capital_sites_owner_id_sso_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."sso_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csr_capital_websites" ADD CONSTRAINT "csr_capital_websites_source_id_csr_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."csr_sources"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csr_capital_websites" ADD CONSTRAINT "csr_capital_websites_owner_id_sso_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."sso_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "csr_capital_records_lead_idx" ON "csr_capital_records" USING btree ("lead_kind","lead_id","created_at");--> statement-breakpoint
CREATE INDEX "csr_capital_sites_contact_phone_idx" ON "csr_capital_sites" USING btree ("contact_phone");--> statement-breakpoint
CREATE INDEX "csr_capital_sites_status_idx" ON "csr_capital_sites" USING btree ("status");--> statement-breakpoint
CREATE INDEX "csr_capital_sites_source_idx" ON "csr_capital_sites" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "csr_capital_sites_owner_idx" ON "csr_capital_sites" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "csr_capital_sites_created_at_idx" ON "csr_capital_sites" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "csr_capital_websites_contact_phone_idx" ON "csr_capital_websites" USING btree ("contact_phone");--> statement-breakpoint
CREATE INDEX "csr_capital_websites_status_idx" ON "csr_capital_websites" USING btree ("status");--> statement-breakpoint
CREATE INDEX "csr_capital_websites_source_idx" ON "csr_capital_websites" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "csr_capital_websites_owner_idx" ON "csr_capital_websites" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "csr_capital_websites_created_at_idx" ON "csr_capital_websites" USING btree ("created_at");