CREATE TABLE "company_card_ledger" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"balance_after_fen" integer NOT NULL,
	"order_id" integer,
	"member_phone" text,
	"remark" text,
	"by_user_id" integer,
	"by_name" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_card_ledger_kind_check" CHECK ("company_card_ledger"."kind" in ('top-up', 'debit', 'credit'))
);
--> statement-breakpoint
CREATE TABLE "company_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"card_no" text NOT NULL,
	"company_name" text NOT NULL,
	"team_card_id" integer NOT NULL,
	"balance_fen" integer DEFAULT 0 NOT NULL,
	"member_phones" text[] DEFAULT '{}'::text[] NOT NULL,
	"monthly_cap_fen" integer,
	"valid_until" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'enabled' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "company_cards_balance_check" CHECK ("company_cards"."balance_fen" >= 0),
	CONSTRAINT "company_cards_status_check" CHECK ("company_cards"."status" in ('enabled', 'disabled'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "company_card_id" integer;--> statement-breakpoint
ALTER TABLE "company_card_ledger" ADD CONSTRAINT "company_card_ledger_card_id_company_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."company_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_cards" ADD CONSTRAINT "company_cards_team_card_id_team_cards_id_fk" FOREIGN KEY ("team_card_id") REFERENCES "public"."team_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_card_ledger_card_idx" ON "company_card_ledger" USING btree ("card_id","id");--> statement-breakpoint
CREATE INDEX "company_card_ledger_member_idx" ON "company_card_ledger" USING btree ("card_id","member_phone","at");--> statement-breakpoint
CREATE UNIQUE INDEX "company_cards_card_no_key" ON "company_cards" USING btree ("card_no");--> statement-breakpoint
CREATE INDEX "company_cards_member_phones_idx" ON "company_cards" USING gin ("member_phones");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_card_id_company_cards_id_fk" FOREIGN KEY ("company_card_id") REFERENCES "public"."company_cards"("id") ON DELETE restrict ON UPDATE no action;