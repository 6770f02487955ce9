CREATE TABLE "machine_earnings" (
	"owned_machine_id" bigint NOT NULL,
	"day" text NOT NULL,
	"account_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"income_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "machine_earnings_owned_machine_id_day_pk" PRIMARY KEY("owned_machine_id","day"),
	CONSTRAINT "machine_earnings_amount" CHECK ("machine_earnings"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "machines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "machines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"names" jsonb NOT NULL,
	"hash_power" text NOT NULL,
	"price" bigint NOT NULL,
	"ticket_price" integer NOT NULL,
	"days" integer NOT NULL,
	"daily_output" text NOT NULL,
	"rent_price" bigint,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "machines_status" CHECK ("machines"."status" in ('active', 'disabled')),
	CONSTRAINT "machines_days" CHECK ("machines"."days" between 1 and 3650),
	CONSTRAINT "machines_prices" CHECK ("machines"."price" > 0 and "machines"."ticket_price" >= 0 and ("machines"."rent_price" is null or "machines"."rent_price" > 0))
);
--> statement-breakpoint
CREATE TABLE "owned_machines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "owned_machines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"machine_id" bigint NOT NULL,
	"acquisition" text NOT NULL,
	"pay_with" text NOT NULL,
	"quantity" integer NOT NULL,
	"hash_power" text NOT NULL,
	"daily_output" text NOT NULL,
	"days" integer NOT NULL,
	"price" bigint NOT NULL,
	"tickets" integer NOT NULL,
	"status" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"earn_from" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"earned_until" timestamp with time zone NOT NULL,
	"paid_days" integer DEFAULT 0 NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "owned_machines_acquisition" CHECK ("owned_machines"."acquisition" in ('buy', 'rent')),
	CONSTRAINT "owned_machines_pay_with" CHECK ("owned_machines"."pay_with" in ('usdt', 'ticket')),
	CONSTRAINT "owned_machines_status" CHECK ("owned_machines"."status" in ('active', 'expired')),
	CONSTRAINT "owned_machines_figures" CHECK ("owned_machines"."quantity" between 1 and 100 and "owned_machines"."days" between 1 and 3650 and "owned_machines"."price" >= 0 and "owned_machines"."tickets" >= 0 and "owned_machines"."paid_days" between 0 and "owned_machines"."days" and "owned_machines"."earned" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ticket_issues" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ticket_issues_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"count" integer NOT NULL,
	"reason" text NOT NULL,
	"account_ids" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tickets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"key" text NOT NULL,
	"memo" text,
	"used_at" timestamp with time zone,
	"used_for" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tickets_status" CHECK ("tickets"."status" in ('available', 'used')),
	CONSTRAINT "tickets_source" CHECK ("tickets"."source" in ('operator', 'reward')),
	CONSTRAINT "tickets_used" CHECK (("tickets"."status" = 'used') = ("tickets"."used_at" is not null and "tickets"."used_for" is not null))
);
--> statement-breakpoint
CREATE INDEX "owned_machines_account" ON "owned_machines" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "owned_machines_earning" ON "owned_machines" USING btree ("earned_until") WHERE "owned_machines"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_key" ON "tickets" USING btree ("key");--> statement-breakpoint
CREATE INDEX "tickets_account" ON "tickets" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "tickets_available" ON "tickets" USING btree ("account_id","id") WHERE "tickets"."status" = 'available';--> statement-breakpoint
INSERT INTO "machines" ("names", "hash_power", "price", "ticket_price", "days", "daily_output", "rent_price", "status", "created_at", "updated_at", "updated_by") VALUES
('{"zh-Hans":"入门矿机","zh-Hant":"入門礦機","en":"Starter miner","ja":"スターター採掘機","ko":"스타터 채굴기","th":"เครื่องขุดรุ่นเริ่มต้น","vi":"Máy đào khởi đầu"}', '10', 100000000, 1, 30, '0.36', 3500000, 'active', now(), now(), 'seed'),
('{"zh-Hans":"标准矿机","zh-Hant":"標準礦機","en":"Standard miner","ja":"スタンダード採掘機","ko":"스탠다드 채굴기","th":"เครื่องขุดรุ่นมาตรฐาน","vi":"Máy đào tiêu chuẩn"}', '50', 500000000, 5, 60, '0.18', 8800000, 'active', now(), now(), 'seed'),
('{"zh-Hans":"专业矿机","zh-Hant":"專業礦機","en":"Pro miner","ja":"プロ採掘機","ko":"프로 채굴기","th":"เครื่องขุดรุ่นโปร","vi":"Máy đào chuyên nghiệp"}', '120.5', 1500000000, 15, 180, '0.0755', NULL, 'active', now(), now(), 'seed');
--> statement-breakpoint
-- The seeded machines reach clients through the public `machines` collection like any other.
INSERT INTO "sync_changes" ("collection", "scope_id", "record_id", "deleted", "at")
SELECT 'machines', 0, "id"::text, false, now() FROM "machines";
