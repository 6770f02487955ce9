ALTER TABLE "users" ADD COLUMN "authenticator_pending_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "authenticator_last_step" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "security_changed_at" timestamp with time zone;