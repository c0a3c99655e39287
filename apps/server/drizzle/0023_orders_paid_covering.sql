DROP INDEX "orders_paid_idx";--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at","kind","status","paid_fen");