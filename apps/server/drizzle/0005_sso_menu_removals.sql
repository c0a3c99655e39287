CREATE TABLE "sso_menu_removals" (
	"seed_key" text PRIMARY KEY NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_by" integer
);
