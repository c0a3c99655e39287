DROP INDEX "csr_capital_sites_contact_phone_idx";--> statement-breakpoint
DROP INDEX "csr_capital_websites_contact_phone_idx";--> statement-breakpoint
DROP INDEX "orders_member_phone_idx";--> statement-breakpoint
CREATE INDEX "building_charge_persons_phone_prefix_idx" ON "building_charge_persons" USING btree ("phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "csr_capital_sites_contact_phone_prefix_idx" ON "csr_capital_sites" USING btree ("contact_phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "csr_capital_websites_contact_phone_prefix_idx" ON "csr_capital_websites" USING btree ("contact_phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "invoices_member_phone_prefix_idx" ON "invoices" USING btree ("member_phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "members_phone_prefix_idx" ON "members" USING btree ("phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "merchants_contact_phone_prefix_idx" ON "merchants" USING btree ("contact_phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_order_no_prefix_idx" ON "orders" USING btree ("order_no" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_member_phone_prefix_idx" ON "orders" USING btree ("member_phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "sso_users_phone_prefix_idx" ON "sso_users" USING btree ("phone" text_pattern_ops);