CREATE TABLE "payment_methods" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_methods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"currency" text,
	"network" text,
	"address" text,
	"bank_name" text,
	"card_number" text,
	"holder_name" text,
	"branch" text,
	"created_at" timestamp with time zone NOT NULL,
	"usable_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "payment_methods_kind" CHECK ("payment_methods"."kind" in ('chain', 'bank'))
);
--> statement-breakpoint
CREATE INDEX "payment_methods_user" ON "payment_methods" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_chain_address" ON "payment_methods" USING btree ("user_id","network","address") WHERE "payment_methods"."kind" = 'chain' and "payment_methods"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_card" ON "payment_methods" USING btree ("user_id","card_number") WHERE "payment_methods"."kind" = 'bank' and "payment_methods"."deleted_at" is null;