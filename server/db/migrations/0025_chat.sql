CREATE TABLE "chat_canned_replies" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_canned_replies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"language" text NOT NULL,
	"text" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_conversations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_conversations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"status" text NOT NULL,
	"assignee_id" bigint,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"customer_read_seq" bigint DEFAULT 0 NOT NULL,
	"agent_read_seq" bigint DEFAULT 0 NOT NULL,
	"last_agent_seq" bigint DEFAULT 0 NOT NULL,
	"last_agent_at" timestamp with time zone,
	"last_customer_at" timestamp with time zone,
	"waiting_since" timestamp with time zone,
	"mailed_seq" bigint DEFAULT 0 NOT NULL,
	"mailed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chat_conversations_status" CHECK ("chat_conversations"."status" in ('open', 'pending', 'resolved'))
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"conversation_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"seq" bigint NOT NULL,
	"client_msg_id" text NOT NULL,
	"sender" text NOT NULL,
	"agent_id" bigint,
	"agent_name" text,
	"text" text,
	"image_id" text,
	"internal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chat_messages_sender" CHECK ("chat_messages"."sender" in ('customer', 'agent')),
	CONSTRAINT "chat_messages_body" CHECK (("chat_messages"."text" is null) <> ("chat_messages"."image_id" is null)),
	CONSTRAINT "chat_messages_internal" CHECK (not "chat_messages"."internal" or "chat_messages"."sender" = 'agent')
);
--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "display_name" text;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_canned_code" ON "chat_canned_replies" USING btree ("code","language");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_conversations_user" ON "chat_conversations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "chat_conversations_desk" ON "chat_conversations" USING btree ("status","waiting_since");--> statement-breakpoint
CREATE INDEX "chat_conversations_unread_mail" ON "chat_conversations" USING btree ("last_agent_at") WHERE "chat_conversations"."last_agent_seq" > "chat_conversations"."customer_read_seq" and "chat_conversations"."last_agent_seq" > "chat_conversations"."mailed_seq";--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_seq" ON "chat_messages" USING btree ("conversation_id","seq") WHERE not "chat_messages"."internal";--> statement-breakpoint
CREATE INDEX "chat_messages_history" ON "chat_messages" USING btree ("conversation_id","seq","id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_client_id" ON "chat_messages" USING btree ("conversation_id","client_msg_id");--> statement-breakpoint
CREATE INDEX "chat_messages_image" ON "chat_messages" USING btree ("image_id");