CREATE TABLE "work_calendar" (
	"date" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "work_calendar_kind" CHECK ("work_calendar"."kind" in ('holiday', 'workday'))
);
