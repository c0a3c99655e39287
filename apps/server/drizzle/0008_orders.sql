CREATE TABLE "order_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_id" integer,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"order_no" text NOT NULL,
	"member_id" integer NOT NULL,
	"member_phone" text NOT NULL,
	"product_id" integer NOT NULL,
	"product_snapshot" jsonb NOT NULL,
	"building_id" integer,
	"quantity" integer DEFAULT 1 NOT NULL,
	"amount_fen" integer NOT NULL,
	"discount_fen" integer DEFAULT 0 NOT NULL,
	"paid_fen" integer DEFAULT 0 NOT NULL,
	"pay_method" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"referrer_phone" text,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"remark" text,
	"start_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"card_no" text,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"balance_fen" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "orders_amounts_check" CHECK ("orders"."amount_fen" >= 0 and "orders"."discount_fen" >= 0 and "orders"."paid_fen" >= 0),
	CONSTRAINT "orders_balance_check" CHECK ("orders"."balance_fen" is null or "orders"."balance_fen" >= 0),
	CONSTRAINT "orders_quantity_check" CHECK ("orders"."quantity" > 0),
	CONSTRAINT "orders_kind_check" CHECK (kind in ('user-card', 'team-card', 'office-seat', 'hall-seat', 'office-station', 'activity-station', 'airport')),
	CONSTRAINT "orders_status_check" CHECK (status in ('pending', 'paid', 'used', 'cancelled', 'refunded')),
	CONSTRAINT "orders_pay_method_check" CHECK (pay_method is null or pay_method in ('wechat', 'alipay', 'card', 'offline'))
);
--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_actor_id_sso_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."sso_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_no_key" ON "orders" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_card_no_key" ON "orders" USING btree ("card_no");--> statement-breakpoint
CREATE INDEX "orders_kind_created_idx" ON "orders" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "orders_member_phone_idx" ON "orders" USING btree ("member_phone");--> statement-breakpoint
CREATE INDEX "orders_member_idx" ON "orders" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "orders_building_idx" ON "orders" USING btree ("building_id");--> statement-breakpoint
CREATE INDEX "orders_kind_status_idx" ON "orders" USING btree ("kind","status");