CREATE TABLE "withdrawals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "withdrawals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"method_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"network" text,
	"address" text,
	"bank_name" text,
	"card_number" text,
	"holder_name" text,
	"branch" text,
	"amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"hold_id" bigint,
	"status" text NOT NULL,
	"stage" text NOT NULL,
	"approvals_needed" integer NOT NULL,
	"first_approved_by" text,
	"second_approved_by" text,
	"reviewed_by" text,
	"reason" text,
	"reference" text,
	"nonce" integer,
	"tx_hash" text,
	"raw_tx" text,
	"send_attempt" integer DEFAULT 0 NOT NULL,
	"business_date" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"approved_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "withdrawals_status" CHECK ("withdrawals"."status" in ('pending', 'success', 'failed')),
	CONSTRAINT "withdrawals_stage" CHECK ("withdrawals"."stage" in ('awaiting_review', 'approved', 'sending', 'paid', 'rejected', 'failed')),
	CONSTRAINT "withdrawals_kind" CHECK ("withdrawals"."kind" in ('chain', 'bank')),
	CONSTRAINT "withdrawals_amount_positive" CHECK ("withdrawals"."amount" > 0 and "withdrawals"."fee" >= 0)
);
--> statement-breakpoint
CREATE INDEX "withdrawals_account" ON "withdrawals" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_day" ON "withdrawals" USING btree ("user_id","business_date");--> statement-breakpoint
CREATE INDEX "withdrawals_open" ON "withdrawals" USING btree ("stage","id") WHERE "withdrawals"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_nonce" ON "withdrawals" USING btree ("network","nonce") WHERE "withdrawals"."nonce" is not null;