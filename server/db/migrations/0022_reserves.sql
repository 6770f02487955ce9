CREATE TABLE "reserve_leaves" (
	"snapshot_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"user_id" bigint NOT NULL,
	"nonce" text NOT NULL,
	"usdt" bigint NOT NULL,
	"rab" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "reserve_leaves_snapshot_id_position_pk" PRIMARY KEY("snapshot_id","position"),
	CONSTRAINT "reserve_leaves_not_negative" CHECK ("reserve_leaves"."usdt" >= 0 and "reserve_leaves"."rab" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reserve_snapshots" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reserve_snapshots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"root_hash" text NOT NULL,
	"usdt" bigint NOT NULL,
	"rab" bigint NOT NULL,
	"leaf_count" integer NOT NULL,
	"reserves" jsonb NOT NULL,
	"ratio" text,
	"taken_by" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "reserve_leaves_user" ON "reserve_leaves" USING btree ("user_id","snapshot_id");