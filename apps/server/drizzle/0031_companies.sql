CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"credit_code" text,
	"contact_name" text,
	"contact_phone" text,
	"building_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"status" text DEFAULT 'enabled' NOT NULL,
	"invoice_title" text,
	"tax_no" text,
	"logo" text,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "companies_status_check" CHECK (status in ('enabled', 'disabled')),
	CONSTRAINT "companies_valid_check" CHECK ("companies"."valid_to" is null or "companies"."valid_from" is null or "companies"."valid_to" > "companies"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "company_staff" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"department" text,
	"status" text DEFAULT 'active' NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"left_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "company_staff_status_check" CHECK (status in ('active', 'left'))
);
--> statement-breakpoint
ALTER TABLE "company_cards" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "company_cards" ADD COLUMN "staff_scope" text DEFAULT 'people' NOT NULL;--> statement-breakpoint
ALTER TABLE "company_cards" ADD COLUMN "departments" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "kreator_user_groups" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "kreator_user_groups" ADD COLUMN "staff_scope" text DEFAULT 'people' NOT NULL;--> statement-breakpoint
ALTER TABLE "kreator_user_groups" ADD COLUMN "departments" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "kreator_users" ADD COLUMN "staff_id" integer;--> statement-breakpoint
-- Data: a company for each distinct company name (case and spaces aside) of the access groups and
-- company cards, its staff list from the members of its groups and the phones of its cards (a phone
-- no member has yet becomes a member from 企业导入, as adding it by hand would), then the groups,
-- people and cards point at them and carry the company's name.
INSERT INTO "companies" ("name")
SELECT DISTINCT ON (lower(n)) n FROM (
  SELECT coalesce(nullif(btrim("company_name"), ''), '未命名企业') AS n FROM "kreator_user_groups"
  UNION ALL
  SELECT coalesce(nullif(btrim("company_name"), ''), '未命名企业') FROM "company_cards"
) names ORDER BY lower(n), n COLLATE "C";--> statement-breakpoint
UPDATE "kreator_user_groups" g SET "company_id" = c."id" FROM "companies" c
WHERE lower(c."name") = lower(coalesce(nullif(btrim(g."company_name"), ''), '未命名企业'));--> statement-breakpoint
UPDATE "company_cards" k SET "company_id" = c."id" FROM "companies" c
WHERE lower(c."name") = lower(coalesce(nullif(btrim(k."company_name"), ''), '未命名企业'));--> statement-breakpoint
UPDATE "companies" c SET "building_ids" = coalesce(
  (SELECT array_agg(DISTINCT g."building_id" ORDER BY g."building_id") FROM "kreator_user_groups" g WHERE g."company_id" = c."id"),
  '{}'::integer[]);--> statement-breakpoint
UPDATE "kreator_user_groups" g SET "company_name" = c."name" FROM "companies" c WHERE c."id" = g."company_id";--> statement-breakpoint
UPDATE "company_cards" k SET "company_name" = c."name" FROM "companies" c WHERE c."id" = k."company_id";--> statement-breakpoint
INSERT INTO "csr_sources" ("name", "code", "sort", "published")
SELECT '企业导入', 'enterprise', 99, true
WHERE EXISTS (SELECT 1 FROM "company_cards" k CROSS JOIN LATERAL unnest(k."member_phones") AS p("phone")
  WHERE NOT EXISTS (SELECT 1 FROM "members" m WHERE m."phone" = p."phone"))
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "members" ("phone", "company_name", "source_id")
SELECT DISTINCT ON (p."phone") p."phone", c."name", (SELECT s."id" FROM "csr_sources" s WHERE lower(s."code") = 'enterprise')
FROM "company_cards" k JOIN "companies" c ON c."id" = k."company_id"
CROSS JOIN LATERAL unnest(k."member_phones") AS p("phone")
WHERE NOT EXISTS (SELECT 1 FROM "members" m WHERE m."phone" = p."phone")
ORDER BY p."phone", k."id";--> statement-breakpoint
INSERT INTO "company_staff" ("company_id", "member_id", "name", "phone", "joined_at")
SELECT DISTINCT ON (g."company_id", u."member_id") g."company_id", u."member_id", u."name", u."phone", u."created_at"
FROM "kreator_users" u JOIN "kreator_user_groups" g ON g."id" = u."group_id"
ORDER BY g."company_id", u."member_id", u."created_at";--> statement-breakpoint
INSERT INTO "company_staff" ("company_id", "member_id", "name", "phone", "joined_at")
SELECT DISTINCT ON (k."company_id", m."id") k."company_id", m."id",
  coalesce(nullif(btrim(m."real_name"), ''), nullif(btrim(m."nickname"), ''), m."phone"), m."phone", k."created_at"
FROM "company_cards" k CROSS JOIN LATERAL unnest(k."member_phones") AS p("phone")
JOIN "members" m ON m."phone" = p."phone"
WHERE NOT EXISTS (SELECT 1 FROM "company_staff" s WHERE s."company_id" = k."company_id" AND s."member_id" = m."id")
ORDER BY k."company_id", m."id", k."created_at";--> statement-breakpoint
UPDATE "kreator_users" u SET "staff_id" = s."id" FROM "kreator_user_groups" g, "company_staff" s
WHERE g."id" = u."group_id" AND s."company_id" = g."company_id" AND s."member_id" = u."member_id";--> statement-breakpoint
ALTER TABLE "company_cards" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "kreator_user_groups" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "kreator_users" ALTER COLUMN "staff_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "company_staff" ADD CONSTRAINT "company_staff_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_staff" ADD CONSTRAINT "company_staff_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_name_lower_key" ON "companies" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "companies_credit_code_key" ON "companies" USING btree ("credit_code");--> statement-breakpoint
CREATE INDEX "companies_building_ids_idx" ON "companies" USING gin ("building_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "company_staff_company_member_key" ON "company_staff" USING btree ("company_id","member_id");--> statement-breakpoint
CREATE INDEX "company_staff_company_status_idx" ON "company_staff" USING btree ("company_id","status","department");--> statement-breakpoint
CREATE INDEX "company_staff_member_idx" ON "company_staff" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "company_staff_phone_prefix_idx" ON "company_staff" USING btree ("phone" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "company_cards" ADD CONSTRAINT "company_cards_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kreator_user_groups" ADD CONSTRAINT "kreator_user_groups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kreator_users" ADD CONSTRAINT "kreator_users_staff_id_company_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."company_staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_cards_company_idx" ON "company_cards" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "kreator_user_groups_company_idx" ON "kreator_user_groups" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "kreator_users_staff_idx" ON "kreator_users" USING btree ("staff_id");--> statement-breakpoint
ALTER TABLE "company_cards" ADD CONSTRAINT "company_cards_staff_scope_check" CHECK (staff_scope in ('all', 'departments', 'people'));--> statement-breakpoint
ALTER TABLE "kreator_user_groups" ADD CONSTRAINT "kreator_user_groups_staff_scope_check" CHECK (staff_scope in ('all', 'departments', 'people'));