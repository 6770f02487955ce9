CREATE TABLE "exchanges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "exchanges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"direction" text NOT NULL,
	"asset_in" text NOT NULL,
	"amount_in" bigint NOT NULL,
	"asset_out" text NOT NULL,
	"amount_out" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"rounding" bigint NOT NULL,
	"price" bigint NOT NULL,
	"price_version_id" bigint NOT NULL,
	"fee_rate" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "exchanges_direction" CHECK ("exchanges"."direction" in ('rab_to_usdt', 'usdt_to_rab')),
	CONSTRAINT "exchanges_amounts" CHECK ("exchanges"."amount_in" > 0 and "exchanges"."amount_out" > 0 and "exchanges"."fee" >= 0 and "exchanges"."rounding" >= 0 and "exchanges"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "price_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"asset" text NOT NULL,
	"price" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "price_versions_price_not_negative" CHECK ("price_versions"."price" >= 0)
);
--> statement-breakpoint
CREATE INDEX "exchanges_account" ON "exchanges" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "price_versions_asset" ON "price_versions" USING btree ("asset","id");--> statement-breakpoint
-- The RAB price set before price versions existed (a decimal string of at most 6 fraction digits) becomes version 1.
INSERT INTO "price_versions" ("asset", "price", "created_at", "created_by")
SELECT 'RAB', round(("value")::numeric * 1000000)::bigint, "updated_at", "updated_by"
FROM "platform_settings" WHERE "key" = 'price.RAB';
