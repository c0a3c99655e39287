CREATE TABLE "activity_stations" (
	"id" serial PRIMARY KEY NOT NULL,
	"building_id" integer NOT NULL,
	"floor" text,
	"name" text NOT NULL,
	"capacity" integer NOT NULL,
	"area_sqm" double precision,
	"facility_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"image_urls" text[] DEFAULT '{}'::text[] NOT NULL,
	"hour_price_fen" integer NOT NULL,
	"min_booking_minutes" integer DEFAULT 60 NOT NULL,
	"open_time" text NOT NULL,
	"close_time" text NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "airport_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"airport_code" text NOT NULL,
	"terminal" text,
	"lounge_name" text NOT NULL,
	"price_fen" integer NOT NULL,
	"supplier_sku" text,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "building_charge_persons" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"building_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "buildings" (
	"id" serial PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"name" text NOT NULL,
	"province_code" text NOT NULL,
	"city_code" text NOT NULL,
	"region_code" text,
	"address" text NOT NULL,
	"longitude" double precision,
	"latitude" double precision,
	"floors" text[] DEFAULT '{}'::text[] NOT NULL,
	"cover_url" text,
	"image_urls" text[] DEFAULT '{}'::text[] NOT NULL,
	"bright_point_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"rule_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"open_time" text,
	"close_time" text,
	"phone" text,
	"description" text,
	"published" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "hall_seat_goods" (
	"id" serial PRIMARY KEY NOT NULL,
	"seat_id" integer NOT NULL,
	"name" text NOT NULL,
	"price_fen" integer NOT NULL,
	"unit" text NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "hall_seats" (
	"id" serial PRIMARY KEY NOT NULL,
	"building_id" integer NOT NULL,
	"floor" text,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"seat_type" text NOT NULL,
	"day_price_fen" integer,
	"month_price_fen" integer,
	"status" text DEFAULT 'enabled' NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "merchant_shares" (
	"id" serial PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"site_type" text NOT NULL,
	"ratio_basis_points" integer NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"effective_to" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "merchant_shares_ratio_check" CHECK ("merchant_shares"."ratio_basis_points" between 0 and 10000),
	CONSTRAINT "merchant_shares_window_check" CHECK ("merchant_shares"."effective_to" is null or "merchant_shares"."effective_to" > "merchant_shares"."effective_from")
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"contact_name" text,
	"contact_phone" text,
	"license_no" text,
	"bank_account_name" text,
	"bank_name" text,
	"bank_account_no" text,
	"description" text,
	"published" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "office_seat_goods" (
	"id" serial PRIMARY KEY NOT NULL,
	"seat_id" integer NOT NULL,
	"name" text NOT NULL,
	"price_fen" integer NOT NULL,
	"unit" text NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "office_seats" (
	"id" serial PRIMARY KEY NOT NULL,
	"building_id" integer NOT NULL,
	"floor" text,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"seat_type" text NOT NULL,
	"day_price_fen" integer,
	"month_price_fen" integer,
	"status" text DEFAULT 'enabled' NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "office_stations" (
	"id" serial PRIMARY KEY NOT NULL,
	"building_id" integer NOT NULL,
	"floor" text,
	"name" text NOT NULL,
	"capacity" integer NOT NULL,
	"area_sqm" double precision,
	"facility_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"image_urls" text[] DEFAULT '{}'::text[] NOT NULL,
	"hour_price_fen" integer NOT NULL,
	"min_booking_minutes" integer DEFAULT 60 NOT NULL,
	"open_time" text NOT NULL,
	"close_time" text NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "team_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"face_value_fen" integer NOT NULL,
	"price_fen" integer NOT NULL,
	"valid_days" integer NOT NULL,
	"building_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "user_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"card_type" text NOT NULL,
	"valid_days" integer NOT NULL,
	"times" integer,
	"price_fen" integer NOT NULL,
	"building_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"description" text,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "activity_stations" ADD CONSTRAINT "activity_stations_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hall_seat_goods" ADD CONSTRAINT "hall_seat_goods_seat_id_hall_seats_id_fk" FOREIGN KEY ("seat_id") REFERENCES "public"."hall_seats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hall_seats" ADD CONSTRAINT "hall_seats_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_shares" ADD CONSTRAINT "merchant_shares_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_seat_goods" ADD CONSTRAINT "office_seat_goods_seat_id_office_seats_id_fk" FOREIGN KEY ("seat_id") REFERENCES "public"."office_seats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_seats" ADD CONSTRAINT "office_seats_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_stations" ADD CONSTRAINT "office_stations_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_stations_building_name_key" ON "activity_stations" USING btree ("building_id",lower("name"));--> statement-breakpoint
CREATE INDEX "airport_products_code_idx" ON "airport_products" USING btree ("airport_code");--> statement-breakpoint
CREATE UNIQUE INDEX "buildings_name_key" ON "buildings" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "buildings_merchant_idx" ON "buildings" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "buildings_city_idx" ON "buildings" USING btree ("city_code");--> statement-breakpoint
CREATE INDEX "hall_seat_goods_seat_idx" ON "hall_seat_goods" USING btree ("seat_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hall_seats_building_code_key" ON "hall_seats" USING btree ("building_id",lower("code"));--> statement-breakpoint
CREATE INDEX "merchant_shares_merchant_type_idx" ON "merchant_shares" USING btree ("merchant_id","site_type","effective_from");--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_name_key" ON "merchants" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "office_seat_goods_seat_idx" ON "office_seat_goods" USING btree ("seat_id");--> statement-breakpoint
CREATE UNIQUE INDEX "office_seats_building_code_key" ON "office_seats" USING btree ("building_id",lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "office_stations_building_name_key" ON "office_stations" USING btree ("building_id",lower("name"));