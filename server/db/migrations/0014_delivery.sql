CREATE TABLE "delivery_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delivery_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_no" text NOT NULL,
	"symbol" text NOT NULL,
	"direction" text NOT NULL,
	"lots" text NOT NULL,
	"leverage" integer NOT NULL,
	"open_price" text NOT NULL,
	"close_price" text NOT NULL,
	"open_time" timestamp with time zone NOT NULL,
	"close_time" timestamp with time zone NOT NULL,
	"margin" bigint NOT NULL,
	"spread" text NOT NULL,
	"profit_loss" bigint NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"published_by" text NOT NULL,
	CONSTRAINT "delivery_records_direction" CHECK ("delivery_records"."direction" in ('buy', 'sell')),
	CONSTRAINT "delivery_records_figures" CHECK ("delivery_records"."margin" >= 0 and "delivery_records"."leverage" > 0 and "delivery_records"."close_time" >= "delivery_records"."open_time")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_records_order_no" ON "delivery_records" USING btree ("order_no");