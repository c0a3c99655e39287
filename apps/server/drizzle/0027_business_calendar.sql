CREATE TABLE "business_calendar" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"time_zone" text NOT NULL,
	CONSTRAINT "business_calendar_one_row" CHECK ("business_calendar"."id" = 1)
);
--> statement-breakpoint
-- Until now every day was a China Standard Time day.
INSERT INTO business_calendar (id, time_zone) VALUES (1, 'Asia/Shanghai');--> statement-breakpoint
-- As in 0026, with each day taken in business_calendar's zone (read once per statement).
CREATE OR REPLACE FUNCTION order_day_totals_statement(changed text) RETURNS text AS $$
  SELECT format($sql$
    INSERT INTO order_day_totals AS t (day, kind, created_count, paid_fen)
    SELECT day, kind, sum(created), sum(paid) FROM (
      SELECT (created_at AT TIME ZONE z.time_zone)::date AS day, kind, sign AS created, 0::bigint AS paid
      FROM (%1$s) c CROSS JOIN business_calendar z
      UNION ALL
      SELECT (paid_at AT TIME ZONE z.time_zone)::date, kind, 0, sign * paid_fen::bigint
      FROM (%1$s) c CROSS JOIN business_calendar z
      WHERE paid_at IS NOT NULL AND status IN ('paid', 'used')
    ) shares
    GROUP BY day, kind
    HAVING sum(created) <> 0 OR sum(paid) <> 0
    ORDER BY day, kind
    ON CONFLICT (day, kind) DO UPDATE
      SET created_count = t.created_count + excluded.created_count, paid_fen = t.paid_fen + excluded.paid_fen
  $sql$, changed)
$$ LANGUAGE sql IMMUTABLE;--> statement-breakpoint
-- Counts every total again from the orders, in business_calendar's zone, through the same statement
-- the triggers run (every order added once): run by the server when the zone changed
-- (seed/business-calendar.ts), in the transaction that changed it.
CREATE OR REPLACE FUNCTION order_day_totals_rebuild() RETURNS void AS $$
BEGIN
  DELETE FROM order_day_totals;
  EXECUTE order_day_totals_statement('SELECT 1 AS sign, created_at, paid_at, status, kind, paid_fen FROM orders');
END;
$$ LANGUAGE plpgsql;
