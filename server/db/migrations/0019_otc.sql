CREATE TABLE "otc_fills" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "otc_fills_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" bigint NOT NULL,
	"maker_account_id" bigint NOT NULL,
	"taker_user_id" bigint NOT NULL,
	"taker_account_id" bigint NOT NULL,
	"volume" bigint NOT NULL,
	"usdt" bigint NOT NULL,
	"maker_fee" bigint NOT NULL,
	"taker_fee" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "otc_fills_amounts" CHECK ("otc_fills"."volume" > 0 and "otc_fills"."usdt" >= 0 and "otc_fills"."maker_fee" >= 0 and "otc_fills"."taker_fee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "otc_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "otc_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"side" text NOT NULL,
	"price" bigint NOT NULL,
	"volume" bigint NOT NULL,
	"splittable" boolean NOT NULL,
	"filled" bigint NOT NULL,
	"usdt_filled" bigint NOT NULL,
	"maker_fee_filled" bigint NOT NULL,
	"maker_fee_rate" text NOT NULL,
	"taker_fee_rate" text NOT NULL,
	"escrow" bigint NOT NULL,
	"hold_id" bigint,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "otc_orders_side" CHECK ("otc_orders"."side" in ('buy', 'sell')),
	CONSTRAINT "otc_orders_status" CHECK ("otc_orders"."status" in ('pending_match', 'match_ended', 'cancelled', 'completed')),
	CONSTRAINT "otc_orders_amounts" CHECK ("otc_orders"."price" > 0 and "otc_orders"."volume" > 0 and "otc_orders"."filled" >= 0 and "otc_orders"."filled" <= "otc_orders"."volume" and "otc_orders"."usdt_filled" >= 0 and "otc_orders"."maker_fee_filled" >= 0 and "otc_orders"."escrow" > 0)
);
--> statement-breakpoint
CREATE INDEX "otc_fills_order" ON "otc_fills" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "otc_fills_taker" ON "otc_fills" USING btree ("taker_account_id","id");--> statement-breakpoint
CREATE INDEX "otc_orders_account" ON "otc_orders" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "otc_orders_open" ON "otc_orders" USING btree ("side","price","id") WHERE status = 'pending_match';