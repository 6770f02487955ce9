CREATE TABLE "chain_cursors" (
	"chain" text PRIMARY KEY NOT NULL,
	"genesis_hash" text NOT NULL,
	"next_block" bigint NOT NULL,
	"tip_hash" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"chain" text NOT NULL,
	"account_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"derivation_index" integer NOT NULL,
	"address" text NOT NULL,
	"hex" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "deposit_addresses_chain_account_id_pk" PRIMARY KEY("chain","account_id")
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deposits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"chain" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"account_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"address" text NOT NULL,
	"from_hex" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"value" text NOT NULL,
	"amount" bigint NOT NULL,
	"dust" text NOT NULL,
	"status" text NOT NULL,
	"confirmations" integer NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"detected_at" timestamp with time zone NOT NULL,
	"held_at" timestamp with time zone,
	"credited_at" timestamp with time zone,
	"reversed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "deposits_status" CHECK ("deposits"."status" in ('confirming', 'held', 'credited', 'below_minimum', 'reversed')),
	CONSTRAINT "deposits_amount_not_negative" CHECK ("deposits"."amount" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_hex" ON "deposit_addresses" USING btree ("chain","hex");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_transfer" ON "deposits" USING btree ("chain","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "deposits_account" ON "deposits" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "deposits_unsettled" ON "deposits" USING btree ("chain","block_number") WHERE "deposits"."status" in ('confirming', 'held');