-- Rows written before the chain existed keep an empty hash: the chain starts after them (audit-chain.ts).
ALTER TABLE "audit_log" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "hash" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "authenticator_secret" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "authenticator_pending_secret" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "authenticator_last_step" bigint;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "elevated_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "frozen_reason" text;