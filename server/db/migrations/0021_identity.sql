CREATE TABLE "identity_submissions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "identity_submissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"document_type" text NOT NULL,
	"number_sealed" text NOT NULL,
	"number_index" text NOT NULL,
	"number_masked" text NOT NULL,
	"real_name" text NOT NULL,
	"images" jsonb NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"reason_text" text,
	"submitted_at" timestamp with time zone NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" bigint,
	CONSTRAINT "identity_submissions_status" CHECK ("identity_submissions"."status" in ('pending_review', 'approved', 'rejected')),
	CONSTRAINT "identity_submissions_document_type" CHECK ("identity_submissions"."document_type" in ('id_card', 'passport', 'driving_licence'))
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "purpose" text DEFAULT 'general' NOT NULL;--> statement-breakpoint
CREATE INDEX "identity_submissions_user" ON "identity_submissions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "identity_submissions_queue" ON "identity_submissions" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "identity_submissions_number" ON "identity_submissions" USING btree ("number_index");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_submissions_one_pending" ON "identity_submissions" USING btree ("user_id") WHERE "identity_submissions"."status" = 'pending_review';--> statement-breakpoint
CREATE UNIQUE INDEX "identity_submissions_one_approved_document" ON "identity_submissions" USING btree ("number_index") WHERE "identity_submissions"."status" = 'approved';