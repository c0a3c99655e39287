CREATE TABLE "device_commands" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"type" text NOT NULL,
	"by_user_id" integer,
	"by_name" text,
	"reason" text,
	"state" text DEFAULT 'sent' NOT NULL,
	"error" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_enrolments" (
	"sn" text PRIMARY KEY NOT NULL,
	"model" text,
	"vendor" text,
	"firmware" text,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_open_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"device_id" integer,
	"sn" text NOT NULL,
	"device_name" text,
	"method" text NOT NULL,
	"credential" text,
	"result" text NOT NULL,
	"reason" text,
	"who" text,
	"member_id" integer,
	"at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"sn" text NOT NULL,
	"name" text NOT NULL,
	"space_id" integer,
	"model" text,
	"vendor" text,
	"firmware" text,
	"secret" text NOT NULL,
	"pending_secret" text,
	"status" text DEFAULT 'offline' NOT NULL,
	"last_seen_at" timestamp with time zone,
	"dropped_count" integer DEFAULT 0 NOT NULL,
	"last_drop_reason" text,
	"last_hello_id" text,
	"access_version" integer DEFAULT 0 NOT NULL,
	"acked_version" integer DEFAULT 0 NOT NULL,
	"admin_passwords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"card_rules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "devices_status_check" CHECK (status in ('online', 'offline'))
);
--> statement-breakpoint
CREATE TABLE "spaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"building_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "spaces_kind_check" CHECK (kind in ('building', 'floor', 'room', 'gate'))
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_open_logs" ADD CONSTRAINT "device_open_logs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_parent_id_spaces_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."spaces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_commands_device_idx" ON "device_commands" USING btree ("device_id","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_open_logs_message_key" ON "device_open_logs" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "device_open_logs_at_idx" ON "device_open_logs" USING btree ("at");--> statement-breakpoint
CREATE INDEX "device_open_logs_device_at_idx" ON "device_open_logs" USING btree ("device_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_sn_key" ON "devices" USING btree ("sn");--> statement-breakpoint
CREATE INDEX "devices_space_idx" ON "devices" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "spaces_building_idx" ON "spaces" USING btree ("building_id");--> statement-breakpoint
CREATE INDEX "spaces_parent_idx" ON "spaces" USING btree ("parent_id");