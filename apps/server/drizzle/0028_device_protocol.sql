ALTER TABLE "devices" ADD COLUMN "protocol" text DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_protocol_check" CHECK (protocol in ('1', '1.1'));