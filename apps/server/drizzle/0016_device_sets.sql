CREATE TABLE "device_set_devices" (
	"set_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "device_set_devices_set_id_device_id_pk" PRIMARY KEY("set_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "device_set_spaces" (
	"set_id" integer NOT NULL,
	"space_id" integer NOT NULL,
	CONSTRAINT "device_set_spaces_set_id_space_id_pk" PRIMARY KEY("set_id","space_id")
);
--> statement-breakpoint
CREATE TABLE "device_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "access_hash" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "next_expiry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "office_station_id" integer;--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "activity_station_id" integer;--> statement-breakpoint
ALTER TABLE "device_set_devices" ADD CONSTRAINT "device_set_devices_set_id_device_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."device_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_set_devices" ADD CONSTRAINT "device_set_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_set_spaces" ADD CONSTRAINT "device_set_spaces_set_id_device_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."device_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_set_spaces" ADD CONSTRAINT "device_set_spaces_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_set_devices_device_idx" ON "device_set_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "device_set_spaces_space_idx" ON "device_set_spaces" USING btree ("space_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_sets_name_lower_key" ON "device_sets" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_office_station_id_office_stations_id_fk" FOREIGN KEY ("office_station_id") REFERENCES "public"."office_stations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_activity_station_id_activity_stations_id_fk" FOREIGN KEY ("activity_station_id") REFERENCES "public"."activity_stations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_next_expiry_idx" ON "devices" USING btree ("next_expiry_at");--> statement-breakpoint
CREATE INDEX "spaces_office_station_idx" ON "spaces" USING btree ("office_station_id");--> statement-breakpoint
CREATE INDEX "spaces_activity_station_idx" ON "spaces" USING btree ("activity_station_id");