-- order_day_totals (db/schema.ts) follows every write to orders, in the writing transaction: one
-- statement trigger per event, each reading the statement's rows (transition tables), so a bulk
-- insert adds its totals in one go. A row's share: +1 to the created count of its creation day, and
-- its paid_fen to the revenue of its payment day while its status is paid or used (the contract's
-- sharedOrderStatuses). An update takes the old share away and adds the new one. Days are China
-- Standard Time days. One statement per write, locking rows in (day, kind) order, the same in every
-- statement, so two writers never wait for each other crosswise.
-- The one statement applying the shares of `changed` (rows with a sign: 1 added, -1 taken away).
-- Days and kinds whose totals do not move (an edit of a remark) are left alone, unlocked.
CREATE OR REPLACE FUNCTION order_day_totals_statement(changed text) RETURNS text AS $$
  SELECT format($sql$
    INSERT INTO order_day_totals AS t (day, kind, created_count, paid_fen)
    SELECT day, kind, sum(created), sum(paid) FROM (
      SELECT (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, kind, sign AS created, 0::bigint AS paid
      FROM (%1$s) c
      UNION ALL
      SELECT (paid_at AT TIME ZONE 'Asia/Shanghai')::date, kind, 0, sign * paid_fen::bigint FROM (%1$s) c
      WHERE paid_at IS NOT NULL AND status IN ('paid', 'used')
    ) shares
    GROUP BY day, kind
    HAVING sum(created) <> 0 OR sum(paid) <> 0
    ORDER BY day, kind
    ON CONFLICT (day, kind) DO UPDATE
      SET created_count = t.created_count + excluded.created_count, paid_fen = t.paid_fen + excluded.paid_fen
  $sql$, changed)
$$ LANGUAGE sql IMMUTABLE;--> statement-breakpoint
-- Run by the trigger function itself (EXECUTE), where the statement's transition tables are visible.
CREATE OR REPLACE FUNCTION order_day_totals_follow() RETURNS trigger AS $$
DECLARE
  columns constant text := 'created_at, paid_at, status, kind, paid_fen';
  added text := format('SELECT 1 AS sign, %s FROM new_orders', columns);
  removed text := format('SELECT -1 AS sign, %s FROM old_orders', columns);
BEGIN
  EXECUTE order_day_totals_statement(CASE TG_OP
    WHEN 'INSERT' THEN added
    WHEN 'DELETE' THEN removed
    ELSE removed || ' UNION ALL ' || added
  END);
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
