CREATE TABLE "airdrops" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "airdrops_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"amount" bigint NOT NULL,
	"reason" text NOT NULL,
	"account_ids" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hosting_accruals" (
	"order_id" bigint NOT NULL,
	"day" text NOT NULL,
	"account_id" bigint NOT NULL,
	"principal_minutes" text NOT NULL,
	"minutes_of_day" integer NOT NULL,
	"daily_rate" text NOT NULL,
	"amount" bigint NOT NULL,
	"income_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "hosting_accruals_order_id_day_pk" PRIMARY KEY("order_id","day"),
	CONSTRAINT "hosting_accruals_amount" CHECK ("hosting_accruals"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "hosting_order_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hosting_order_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"penalty" bigint DEFAULT 0 NOT NULL,
	"principal_after" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "hosting_order_changes_kind" CHECK ("hosting_order_changes"."kind" in ('create', 'add', 'sub', 'redeem', 'maturity')),
	CONSTRAINT "hosting_order_changes_amounts" CHECK ("hosting_order_changes"."amount" <> 0 and "hosting_order_changes"."penalty" >= 0 and "hosting_order_changes"."principal_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "hosting_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hosting_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"days" integer NOT NULL,
	"daily_rate" text NOT NULL,
	"minimum" bigint NOT NULL,
	"maximum" bigint NOT NULL,
	"payout" text NOT NULL,
	"early_exit" boolean NOT NULL,
	"penalty_rate" text NOT NULL,
	"principal" bigint NOT NULL,
	"initial_amount" bigint NOT NULL,
	"status" text NOT NULL,
	"close_reason" text,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"interest_from" timestamp with time zone NOT NULL,
	"interest_until" timestamp with time zone NOT NULL,
	"accrued_until" timestamp with time zone NOT NULL,
	"accrued" bigint DEFAULT 0 NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"penalty" bigint DEFAULT 0 NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "hosting_orders_status" CHECK ("hosting_orders"."status" in ('in_progress', 'expired')),
	CONSTRAINT "hosting_orders_close_reason" CHECK ("hosting_orders"."close_reason" is null or "hosting_orders"."close_reason" in ('matured', 'redeemed')),
	CONSTRAINT "hosting_orders_payout" CHECK ("hosting_orders"."payout" in ('daily', 'at_maturity')),
	CONSTRAINT "hosting_orders_principal" CHECK (("hosting_orders"."status" = 'in_progress' and "hosting_orders"."principal" > 0) or ("hosting_orders"."status" = 'expired' and "hosting_orders"."principal" = 0)),
	CONSTRAINT "hosting_orders_interest" CHECK ("hosting_orders"."accrued" >= 0 and "hosting_orders"."paid" >= 0 and "hosting_orders"."paid" <= "hosting_orders"."accrued")
);
--> statement-breakpoint
CREATE TABLE "hosting_products" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hosting_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"names" jsonb NOT NULL,
	"days" integer NOT NULL,
	"daily_rate" text NOT NULL,
	"minimum" bigint NOT NULL,
	"maximum" bigint NOT NULL,
	"payout" text NOT NULL,
	"early_exit" boolean NOT NULL,
	"penalty_rate" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "hosting_products_payout" CHECK ("hosting_products"."payout" in ('daily', 'at_maturity')),
	CONSTRAINT "hosting_products_status" CHECK ("hosting_products"."status" in ('active', 'disabled')),
	CONSTRAINT "hosting_products_days" CHECK ("hosting_products"."days" between 1 and 3650),
	CONSTRAINT "hosting_products_bounds" CHECK ("hosting_products"."minimum" > 0 and "hosting_products"."maximum" >= "hosting_products"."minimum")
);
--> statement-breakpoint
CREATE TABLE "income" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "income_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"type" text NOT NULL,
	"amount" bigint NOT NULL,
	"earnings_date" text NOT NULL,
	"arrival_date" text NOT NULL,
	"status" text NOT NULL,
	"key" text NOT NULL,
	"transfer_key" text NOT NULL,
	"source_table" text NOT NULL,
	"source_id" text NOT NULL,
	"memo" text,
	"arrived_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "income_type" CHECK ("income"."type" in ('static', 'promotion', 'management', 'airdrop', 'dividend', 'mining_machine')),
	CONSTRAINT "income_status" CHECK ("income"."status" in ('pending_arrival', 'arrived')),
	CONSTRAINT "income_amount_positive" CHECK ("income"."amount" > 0),
	CONSTRAINT "income_arrived_at" CHECK (("income"."status" = 'arrived') = ("income"."arrived_at" is not null))
);
--> statement-breakpoint
CREATE INDEX "hosting_order_changes_order" ON "hosting_order_changes" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "hosting_order_changes_account" ON "hosting_order_changes" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "hosting_orders_account" ON "hosting_orders" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "hosting_orders_accruing" ON "hosting_orders" USING btree ("accrued_until") WHERE "hosting_orders"."accrued_until" < "hosting_orders"."interest_until";--> statement-breakpoint
CREATE INDEX "hosting_orders_maturing" ON "hosting_orders" USING btree ("end_at") WHERE "hosting_orders"."status" = 'in_progress';--> statement-breakpoint
CREATE UNIQUE INDEX "income_key" ON "income" USING btree ("key");--> statement-breakpoint
CREATE INDEX "income_account" ON "income" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "income_account_type" ON "income" USING btree ("account_id","type","id");--> statement-breakpoint
CREATE INDEX "income_source" ON "income" USING btree ("source_table","source_id");--> statement-breakpoint
-- The default products a new installation offers (README "Hosting"): 7, 30 and 90 days from 100
-- USDT, interest paid daily; operators change or disable them (admin API, CLI).
INSERT INTO "hosting_products" ("names", "days", "daily_rate", "minimum", "maximum", "payout", "early_exit", "penalty_rate", "status", "created_at", "updated_at", "updated_by") VALUES
('{"zh-Hans":"7天托管","zh-Hant":"7天託管","en":"7-day hosting","ja":"7日間ホスティング","ko":"7일 호스팅","th":"ฝากดูแล 7 วัน","vi":"Lưu ký 7 ngày"}', 7, '0.003', 100000000, 100000000000, 'daily', true, '0.01', 'active', now(), now(), 'seed'),
('{"zh-Hans":"30天托管","zh-Hant":"30天託管","en":"30-day hosting","ja":"30日間ホスティング","ko":"30일 호스팅","th":"ฝากดูแล 30 วัน","vi":"Lưu ký 30 ngày"}', 30, '0.0035', 100000000, 100000000000, 'daily', true, '0.03', 'active', now(), now(), 'seed'),
('{"zh-Hans":"90天托管","zh-Hant":"90天託管","en":"90-day hosting","ja":"90日間ホスティング","ko":"90일 호스팅","th":"ฝากดูแล 90 วัน","vi":"Lưu ký 90 ngày"}', 90, '0.0045', 100000000, 100000000000, 'daily', false, '0', 'active', now(), now(), 'seed');
