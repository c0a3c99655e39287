DROP INDEX "orders_kind_created_idx";--> statement-breakpoint
CREATE INDEX "orders_kind_created_id_idx" ON "orders" USING btree ("kind","created_at","id");