CREATE TABLE "alert_reads" (
	"alert_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_reads_alert_id_user_id_pk" PRIMARY KEY("alert_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"cause_key" text NOT NULL,
	"building_id" integer,
	"device_id" integer,
	"title" text NOT NULL,
	"detail" text,
	"link" text,
	"count" integer DEFAULT 1 NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "alerts_kind_check" CHECK (kind in ('device-offline', 'alarm', 'sync-stuck', 'refusals', 'rollout-halted'))
);
--> statement-breakpoint
CREATE TABLE "device_alarm_clears" (
	"message_id" text PRIMARY KEY NOT NULL,
	"sn" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_alarms" (
	"id" serial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"device_id" integer,
	"sn" text NOT NULL,
	"device_name" text,
	"building_id" integer,
	"kind" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"detail" text,
	"raised_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone,
	"cleared_message_id" text,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by_id" integer,
	"acknowledged_by" text,
	"note" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_alarms_kind_check" CHECK (kind in ('held-open', 'forced', 'tamper', 'power', 'fault')),
	CONSTRAINT "device_alarms_state_check" CHECK (state in ('open', 'cleared', 'acknowledged'))
);
--> statement-breakpoint
CREATE TABLE "firmware_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"version" text NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"remark" text,
	"created_by_id" integer,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_rollout_devices" (
	"rollout_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"position" integer NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"percent" integer DEFAULT 0 NOT NULL,
	"error" text,
	"command_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "firmware_rollout_devices_rollout_id_device_id_pk" PRIMARY KEY("rollout_id","device_id"),
	CONSTRAINT "firmware_rollout_devices_state_check" CHECK (state in ('queued', 'sent', 'downloading', 'verifying', 'installing', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "firmware_rollouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"firmware_id" integer NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"batch_size" integer NOT NULL,
	"stop_after_failures" integer NOT NULL,
	"timeout_minutes" integer DEFAULT 15 NOT NULL,
	"reason" text,
	"created_by_id" integer,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "firmware_rollouts_state_check" CHECK (state in ('running', 'paused', 'halted', 'done', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "buildings" ADD COLUMN "device_lease_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "buildings" ADD COLUMN "offline_alert_minutes" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "held_version" integer;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "access_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "sent_mode" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "mode" text DEFAULT 'normal' NOT NULL;--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "mode_reason" text;--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "mode_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "spaces" ADD COLUMN "mode_changed_by" text;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_user_id_sso_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sso_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_alarms" ADD CONSTRAINT "device_alarms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_alarms" ADD CONSTRAINT "device_alarms_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollout_devices" ADD CONSTRAINT "firmware_rollout_devices_rollout_id_firmware_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."firmware_rollouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollout_devices" ADD CONSTRAINT "firmware_rollout_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollouts" ADD CONSTRAINT "firmware_rollouts_firmware_id_firmware_files_id_fk" FOREIGN KEY ("firmware_id") REFERENCES "public"."firmware_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_cause_key" ON "alerts" USING btree ("cause_key") WHERE closed_at is null;--> statement-breakpoint
CREATE INDEX "alerts_raised_idx" ON "alerts" USING btree ("raised_at");--> statement-breakpoint
CREATE INDEX "device_alarm_clears_sn_idx" ON "device_alarm_clears" USING btree ("sn","kind","at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_alarms_message_key" ON "device_alarms" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_alarms_cleared_message_key" ON "device_alarms" USING btree ("cleared_message_id");--> statement-breakpoint
CREATE INDEX "device_alarms_raised_idx" ON "device_alarms" USING btree ("raised_at");--> statement-breakpoint
CREATE INDEX "device_alarms_device_idx" ON "device_alarms" USING btree ("device_id","raised_at");--> statement-breakpoint
CREATE INDEX "device_alarms_open_idx" ON "device_alarms" USING btree ("device_id","kind") WHERE cleared_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_files_model_version_key" ON "firmware_files" USING btree ("model","version");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_rollout_devices_active_key" ON "firmware_rollout_devices" USING btree ("device_id") WHERE active;--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_rollout_devices_command_key" ON "firmware_rollout_devices" USING btree ("command_id");--> statement-breakpoint
CREATE INDEX "firmware_rollouts_state_idx" ON "firmware_rollouts" USING btree ("state");--> statement-breakpoint
CREATE INDEX "spaces_mode_idx" ON "spaces" USING btree ("mode") WHERE mode <> 'normal';--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_device_lease_hours_check" CHECK (device_lease_hours between 1 and 168);--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_offline_alert_minutes_check" CHECK (offline_alert_minutes between 1 and 1440);--> statement-breakpoint
ALTER TABLE "spaces" ADD CONSTRAINT "spaces_mode_check" CHECK (mode in ('normal', 'lockdown', 'release'));