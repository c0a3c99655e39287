-- order_day_totals (db/schema.ts) follows every write to orders, in the writing transaction: one
-- statement trigger per event, each reading the statement's rows (transition tables), so a bulk
-- insert adds its totals in one go. A row's share: +1 to the created count of its creation day, and
-- its paid_fen to the revenue of its payment day while its status is paid or used (the contract's
-- sharedOrderStatuses). An update takes the old share away and adds the new one. Days are China
-- Standard Time days. Rows are locked in (day, kind) order, the same in every statement.
-- The statement adding (sign 1) or taking away (sign -1) the shares of the rows of `rows_name`.
CREATE OR REPLACE FUNCTION order_day_totals_statement(sign integer, rows_name text) RETURNS text AS $$
  SELECT format($sql$
    INSERT INTO order_day_totals AS t (day, kind, created_count, paid_fen)
    SELECT day, kind, sum(created) * %1$s, sum(paid) * %1$s FROM (
      SELECT (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, kind, 1 AS created, 0::bigint AS paid
      FROM %2$I
      UNION ALL
      SELECT (paid_at AT TIME ZONE 'Asia/Shanghai')::date, kind, 0, paid_fen::bigint FROM %2$I
      WHERE paid_at IS NOT NULL AND status IN ('paid', 'used')
    ) shares
    GROUP BY day, kind
    ORDER BY day, kind
    ON CONFLICT (day, kind) DO UPDATE
      SET created_count = t.created_count + excluded.created_count, paid_fen = t.paid_fen + excluded.paid_fen
  $sql$, sign, rows_name)
$$ LANGUAGE sql IMMUTABLE;--> statement-breakpoint
-- Run by the trigger function itself (EXECUTE), where the statement's transition tables are visible.
CREATE OR REPLACE FUNCTION order_day_totals_follow() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    EXECUTE order_day_totals_statement(-1, 'old_orders');
  END IF;
  IF TG_OP <> 'DELETE' THEN
    EXECUTE order_day_totals_statement(1, 'new_orders');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER orders_day_totals_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_day_totals_follow();--> statement-breakpoint
CREATE TRIGGER orders_day_totals_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_day_totals_follow();--> statement-breakpoint
CREATE TRIGGER orders_day_totals_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_day_totals_follow();--> statement-breakpoint
-- The orders already there.
INSERT INTO order_day_totals (day, kind, created_count, paid_fen)
SELECT day, kind, sum(created), sum(paid) FROM (
  SELECT (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, kind, 1 AS created, 0::bigint AS paid FROM orders
  UNION ALL
  SELECT (paid_at AT TIME ZONE 'Asia/Shanghai')::date, kind, 0, paid_fen::bigint FROM orders
  WHERE paid_at IS NOT NULL AND status IN ('paid', 'used')
) shares
GROUP BY day, kind;
