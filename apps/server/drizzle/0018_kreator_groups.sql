CREATE TABLE "kreator_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
CREATE TABLE "kreator_user_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"company_name" text NOT NULL,
	"building_id" integer NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'enabled' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "kreator_user_groups_status_check" CHECK ("kreator_user_groups"."status" in ('enabled', 'disabled')),
	CONSTRAINT "kreator_user_groups_valid_check" CHECK ("kreator_user_groups"."valid_to" > "kreator_user_groups"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "kreator_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "kreator_devices" ADD CONSTRAINT "kreator_devices_group_id_kreator_user_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."kreator_user_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kreator_devices" ADD CONSTRAINT "kreator_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kreator_user_groups" ADD CONSTRAINT "kreator_user_groups_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kreator_users" ADD CONSTRAINT "kreator_users_group_id_kreator_user_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."kreator_user_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kreator_users" ADD CONSTRAINT "kreator_users_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kreator_devices_group_device_key" ON "kreator_devices" USING btree ("group_id","device_id");--> statement-breakpoint
CREATE INDEX "kreator_devices_device_idx" ON "kreator_devices" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kreator_user_groups_name_lower_key" ON "kreator_user_groups" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "kreator_users_group_phone_key" ON "kreator_users" USING btree ("group_id","phone");--> statement-breakpoint
CREATE INDEX "kreator_users_member_idx" ON "kreator_users" USING btree ("member_id");