-- The sync change log keeps one index: its primary key becomes the pull's order (collection,
-- scope, txid, seq), which replaces sync_changes_scope (the same columns); the key on seq alone
-- read nothing, and every synced write paid a btree insert into it (four per ledger transfer).
-- seq stays unique (an identity), so the new key is unique for every row already there.
ALTER TABLE "sync_changes" DROP CONSTRAINT "sync_changes_pkey";--> statement-breakpoint
DROP INDEX "sync_changes_scope";--> statement-breakpoint
ALTER TABLE "sync_changes" ADD CONSTRAINT "sync_changes_pkey" PRIMARY KEY("collection","scope_id","txid","seq");
