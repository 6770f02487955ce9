-- Ledger transfers are append-only: a mistake is undone by a new transfer, never by an edit.
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_transfers_append_only BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_transfers_no_truncate BEFORE TRUNCATE ON ledger_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
-- A hold is never deleted, never changes what it holds, and ends once: only `remaining` may
-- shrink while it is pending, and its status may leave `pending` once.
CREATE FUNCTION ledger_holds_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'ledger_holds rows are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending'
     OR NEW.key <> OLD.key OR NEW.owner <> OLD.owner OR NEW.asset <> OLD.asset
     OR NEW.kind <> OLD.kind OR NEW.amount <> OLD.amount OR NEW.remaining > OLD.remaining
     OR NEW.ref_table <> OLD.ref_table OR NEW.ref_id <> OLD.ref_id OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'ledger_holds: only a pending hold may shrink or end' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_holds_guard BEFORE UPDATE OR DELETE ON ledger_holds
  FOR EACH ROW EXECUTE FUNCTION ledger_holds_guard();
--> statement-breakpoint
CREATE TRIGGER ledger_holds_no_truncate BEFORE TRUNCATE ON ledger_holds
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
