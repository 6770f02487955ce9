CREATE TABLE "ledger_adjustments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_adjustments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"asset" text NOT NULL,
	"amount" bigint NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"requested_by" text NOT NULL,
	"reviewed_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "ledger_adjustments_amount_not_zero" CHECK ("ledger_adjustments"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_balances" (
	"owner" bigint NOT NULL,
	"book" text NOT NULL,
	"asset" text NOT NULL,
	"slot" smallint NOT NULL,
	"balance" bigint NOT NULL,
	CONSTRAINT "ledger_balances_owner_book_asset_slot_pk" PRIMARY KEY("owner","book","asset","slot"),
	CONSTRAINT "ledger_balances_customer_never_negative" CHECK ("ledger_balances"."owner" = 0 OR "ledger_balances"."balance" >= 0),
	CONSTRAINT "ledger_balances_customer_one_slot" CHECK ("ledger_balances"."owner" = 0 OR "ledger_balances"."slot" = 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_holds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_holds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"owner" bigint NOT NULL,
	"asset" text NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"remaining" bigint NOT NULL,
	"status" text NOT NULL,
	"ref_table" text NOT NULL,
	"ref_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_holds_amount_positive" CHECK ("ledger_holds"."amount" > 0),
	CONSTRAINT "ledger_holds_remaining" CHECK (("ledger_holds"."status" = 'pending' AND "ledger_holds"."remaining" > 0 AND "ledger_holds"."remaining" <= "ledger_holds"."amount") OR ("ledger_holds"."status" <> 'pending' AND "ledger_holds"."remaining" = 0))
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"asset" text NOT NULL,
	"debit_owner" bigint NOT NULL,
	"debit_book" text NOT NULL,
	"credit_owner" bigint NOT NULL,
	"credit_book" text NOT NULL,
	"amount" bigint NOT NULL,
	"debit_balance_after" bigint,
	"credit_balance_after" bigint,
	"ref_table" text NOT NULL,
	"ref_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_transfers_amount_positive" CHECK ("ledger_transfers"."amount" > 0),
	CONSTRAINT "ledger_transfers_two_books" CHECK ("ledger_transfers"."debit_owner" <> "ledger_transfers"."credit_owner" OR "ledger_transfers"."debit_book" <> "ledger_transfers"."credit_book")
);
--> statement-breakpoint
CREATE TABLE "platform_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ledger_adjustments_status" ON "ledger_adjustments" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_holds_key" ON "ledger_holds" USING btree ("key");--> statement-breakpoint
CREATE INDEX "ledger_holds_owner_pending" ON "ledger_holds" USING btree ("owner","asset") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transfers_key" ON "ledger_transfers" USING btree ("key");--> statement-breakpoint
CREATE INDEX "ledger_transfers_debit" ON "ledger_transfers" USING btree ("debit_owner","id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_credit" ON "ledger_transfers" USING btree ("credit_owner","id");