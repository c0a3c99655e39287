CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"order_type" text NOT NULL,
	"order_nos" jsonb NOT NULL,
	"member_phone" text,
	"title_type" text NOT NULL,
	"title" text NOT NULL,
	"tax_no" text,
	"invoice_type" text DEFAULT 'normal' NOT NULL,
	"amount_fen" integer NOT NULL,
	"email" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"invoice_no" text,
	"file_url" text,
	"issued_at" timestamp with time zone,
	"reject_reason" text,
	"rejected_at" timestamp with time zone,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	CONSTRAINT "invoices_amount_check" CHECK ("invoices"."amount_fen" > 0),
	CONSTRAINT "invoices_kind_check" CHECK (kind in ('invoice', 'tripartite')),
	CONSTRAINT "invoices_status_check" CHECK (status in ('pending', 'issued', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_order_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoice_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_invoice_no_key" ON "invoices" USING btree ("invoice_no");--> statement-breakpoint
CREATE INDEX "invoices_kind_created_idx" ON "invoices" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "invoices_kind_status_idx" ON "invoices" USING btree ("kind","status");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_card_order_id_orders_id_fk" FOREIGN KEY ("card_order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_booking_idx" ON "orders" USING btree ("kind","product_id","start_at");--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "orders_card_order_idx" ON "orders" USING btree ("card_order_id");--> statement-breakpoint
CREATE INDEX "orders_invoice_idx" ON "orders" USING btree ("invoice_id");