CREATE TABLE "audit_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"resource" text NOT NULL,
	"resource_id" text,
	"before" jsonb,
	"after" jsonb,
	"ip" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"family_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	CONSTRAINT "auth_tokens_kind_check" CHECK ("auth_tokens"."kind" in ('access', 'refresh'))
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_menus" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"icon_url" text,
	"icon_bright_url" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"type" text NOT NULL,
	"permission" text,
	"visible" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "sso_menus_type_check" CHECK ("sso_menus"."type" in ('group', 'page', 'action'))
);
--> statement-breakpoint
CREATE TABLE "sso_role_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "sso_role_menus" (
	"role_id" integer NOT NULL,
	"menu_id" integer NOT NULL,
	CONSTRAINT "sso_role_menus_role_id_menu_id_pk" PRIMARY KEY("role_id","menu_id")
);
--> statement-breakpoint
CREATE TABLE "sso_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"description" text,
	"role_group_id" integer,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "sso_user_roles" (
	"user_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "sso_user_roles_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "sso_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"email" text,
	"phone" text,
	"avatar" text,
	"password_hash" text NOT NULL,
	"status" text DEFAULT 'enabled' NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "sso_users_status_check" CHECK ("sso_users"."status" in ('enabled', 'disabled'))
);
--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_actor_id_sso_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."sso_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_sso_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sso_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_menus" ADD CONSTRAINT "sso_menus_parent_id_sso_menus_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."sso_menus"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_role_menus" ADD CONSTRAINT "sso_role_menus_role_id_sso_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."sso_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_role_menus" ADD CONSTRAINT "sso_role_menus_menu_id_sso_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."sso_menus"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_roles" ADD CONSTRAINT "sso_roles_role_group_id_sso_role_groups_id_fk" FOREIGN KEY ("role_group_id") REFERENCES "public"."sso_role_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_user_roles" ADD CONSTRAINT "sso_user_roles_user_id_sso_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sso_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_user_roles" ADD CONSTRAINT "sso_user_roles_role_id_sso_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."sso_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_logs_at_idx" ON "audit_logs" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_logs_actor_idx" ON "audit_logs" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "audit_logs_resource_idx" ON "audit_logs" USING btree ("resource","at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_tokens_token_hash_key" ON "auth_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "auth_tokens_user_idx" ON "auth_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_tokens_family_idx" ON "auth_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "login_failures_username_at_idx" ON "login_failures" USING btree ("username","at");--> statement-breakpoint
CREATE INDEX "login_failures_ip_at_idx" ON "login_failures" USING btree ("ip","at");--> statement-breakpoint
CREATE INDEX "sso_menus_parent_idx" ON "sso_menus" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "sso_role_menus_menu_idx" ON "sso_role_menus" USING btree ("menu_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_roles_code_key" ON "sso_roles" USING btree ("code");--> statement-breakpoint
CREATE INDEX "sso_user_roles_role_idx" ON "sso_user_roles" USING btree ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_users_username_lower_key" ON "sso_users" USING btree (lower("username"));