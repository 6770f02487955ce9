CREATE TABLE "dividend_releases" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dividend_releases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"dividend_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"day" text NOT NULL,
	"balance" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"income_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dividend_releases_status" CHECK ("dividend_releases"."status" in ('to_be_claimed', 'claimed', 'expired')),
	CONSTRAINT "dividend_releases_amount_positive" CHECK ("dividend_releases"."amount" > 0),
	CONSTRAINT "dividend_releases_claimed_at" CHECK (("dividend_releases"."status" = 'claimed') = ("dividend_releases"."claimed_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "dividends" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dividends_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"day" text NOT NULL,
	"mode" text NOT NULL,
	"total" bigint NOT NULL,
	"rate" text,
	"eligible_balance" bigint NOT NULL,
	"accounts" integer NOT NULL,
	"distributed" bigint NOT NULL,
	"residue" bigint NOT NULL,
	"claim_days" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "dividends_mode" CHECK ("dividends"."mode" in ('total', 'rate')),
	CONSTRAINT "dividends_amounts" CHECK ("dividends"."total" > 0 and "dividends"."residue" >= 0 and "dividends"."distributed" + "dividends"."residue" = "dividends"."total")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "dividend_releases_dividend_account" ON "dividend_releases" USING btree ("dividend_id","account_id");--> statement-breakpoint
CREATE INDEX "dividend_releases_account" ON "dividend_releases" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "dividend_releases_claimable" ON "dividend_releases" USING btree ("expires_at") WHERE "dividend_releases"."status" = 'to_be_claimed';--> statement-breakpoint
CREATE UNIQUE INDEX "dividends_day" ON "dividends" USING btree ("day");