CREATE TABLE "sweeps" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sweeps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"chain" text NOT NULL,
	"account_id" bigint NOT NULL,
	"address" text NOT NULL,
	"value" text NOT NULL,
	"gas_tx_hash" text,
	"tx_hash" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sweeps_status" CHECK ("sweeps"."status" in ('sent', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "sweeps_chain" ON "sweeps" USING btree ("chain","id");