CREATE TABLE "airport_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"city" text NOT NULL,
	"airport_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "airport_codes_code_check" CHECK ("airport_codes"."code" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
CREATE TABLE "building_bright_points" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"icon_url" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "building_bright_points_kind_check" CHECK ("building_bright_points"."kind" in ('highlight', 'facility'))
);
--> statement-breakpoint
CREATE TABLE "building_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"icon_url" text,
	"description" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "dict_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"dict_code" text NOT NULL,
	"label" text NOT NULL,
	"value" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "dicts" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "dicts_code_check" CHECK ("dicts"."code" ~ '^[a-z][a-z0-9_]{1,49}$')
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" serial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"avatar" text,
	"real_name" text,
	"id_card_no" text,
	"company_name" text,
	"source_id" integer,
	"status" text DEFAULT 'enabled' NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "members_status_check" CHECK ("members"."status" in ('enabled', 'disabled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "dicts_code_key" ON "dicts" USING btree ("code");--> statement-breakpoint
ALTER TABLE "dict_items" ADD CONSTRAINT "dict_items_dict_code_dicts_code_fk" FOREIGN KEY ("dict_code") REFERENCES "public"."dicts"("code") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_source_id_csr_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."csr_sources"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "airport_codes_code_key" ON "airport_codes" USING btree (lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "building_bright_points_kind_name_key" ON "building_bright_points" USING btree ("kind",lower("name"));--> statement-breakpoint
CREATE INDEX "building_bright_points_kind_sort_idx" ON "building_bright_points" USING btree ("kind","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "building_rules_name_key" ON "building_rules" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "dict_items_dict_value_key" ON "dict_items" USING btree ("dict_code",lower("value"));--> statement-breakpoint
CREATE INDEX "dict_items_dict_sort_idx" ON "dict_items" USING btree ("dict_code","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "members_phone_key" ON "members" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "members_source_idx" ON "members" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "members_registered_at_idx" ON "members" USING btree ("registered_at");