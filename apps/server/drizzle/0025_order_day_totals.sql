CREATE TABLE "order_day_totals" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"created_count" integer DEFAULT 0 NOT NULL,
	"paid_fen" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "order_day_totals_day_kind_pk" PRIMARY KEY("day","kind")
);
