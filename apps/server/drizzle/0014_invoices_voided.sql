ALTER TABLE "invoices" DROP CONSTRAINT "invoices_status_check";--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_status_check" CHECK (status in ('pending', 'issued', 'rejected', 'voided'));--> statement-breakpoint
-- 作废 gets its own status: invoices rejected after they were issued were voided, not 驳回.
UPDATE "invoices" SET "status" = 'voided' WHERE "status" = 'rejected' AND "issued_at" IS NOT NULL;
