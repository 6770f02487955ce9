CREATE TABLE "team_days" (
	"day" text PRIMARY KEY NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"rerun_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "team_levels" (
	"level" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"own_hosting" bigint NOT NULL,
	"direct_valid_members" integer NOT NULL,
	"small_area_performance" bigint NOT NULL,
	"promotion_rate_1" text NOT NULL,
	"promotion_rate_2" text NOT NULL,
	"management_rate" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "team_levels_level" CHECK ("team_levels"."level" between 1 and 20),
	CONSTRAINT "team_levels_requirements" CHECK ("team_levels"."own_hosting" >= 0 and "team_levels"."direct_valid_members" >= 0 and "team_levels"."small_area_performance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "team_user_levels" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"level" integer NOT NULL,
	"day" text NOT NULL,
	"own_performance" bigint NOT NULL,
	"direct_valid_members" integer NOT NULL,
	"small_area_performance" bigint NOT NULL,
	"team_performance" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "referral_paths_descendant";--> statement-breakpoint
ALTER TABLE "income" ADD COLUMN "source" jsonb;--> statement-breakpoint
CREATE INDEX "hosting_accruals_day" ON "hosting_accruals" USING btree ("day");--> statement-breakpoint
CREATE INDEX "referral_paths_generation" ON "referral_paths" USING btree ("ancestor_id","depth","descendant_id");--> statement-breakpoint
CREATE INDEX "referral_paths_descendant" ON "referral_paths" USING btree ("descendant_id","depth");--> statement-breakpoint
-- The default team levels a new installation starts with (README "Team levels"): requirements
-- in USDT minor units, rates as exact decimals; operators change them (admin API, CLI).
INSERT INTO "team_levels" ("level", "name", "own_hosting", "direct_valid_members", "small_area_performance", "promotion_rate_1", "promotion_rate_2", "management_rate", "updated_at", "updated_by") VALUES
(1, 'V1', 500000000, 1, 0, '0.1', '0.05', '0.02', now(), 'seed'),
(2, 'V2', 1000000000, 3, 10000000000, '0.12', '0.06', '0.05', now(), 'seed'),
(3, 'V3', 3000000000, 5, 50000000000, '0.15', '0.08', '0.08', now(), 'seed'),
(4, 'V4', 5000000000, 8, 200000000000, '0.15', '0.08', '0.11', now(), 'seed'),
(5, 'V5', 10000000000, 10, 1000000000000, '0.15', '0.08', '0.14', now(), 'seed');
