CREATE TABLE "team_card_activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"team_card_id" integer NOT NULL,
	"discount_price_fen" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"stock" integer NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"limit_per_user" integer NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "team_card_activities_sold_check" CHECK ("team_card_activities"."sold" >= 0 and "team_card_activities"."sold" <= "team_card_activities"."stock"),
	CONSTRAINT "team_card_activities_window_check" CHECK ("team_card_activities"."end_at" > "team_card_activities"."start_at")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "activity_id" integer;--> statement-breakpoint
ALTER TABLE "team_card_activities" ADD CONSTRAINT "team_card_activities_team_card_id_team_cards_id_fk" FOREIGN KEY ("team_card_id") REFERENCES "public"."team_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_card_activities_card_idx" ON "team_card_activities" USING btree ("team_card_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_activity_id_team_card_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."team_card_activities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_activity_member_idx" ON "orders" USING btree ("activity_id","member_id");