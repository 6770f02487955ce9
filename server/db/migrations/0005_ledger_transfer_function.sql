-- One ledger transfer in one round trip (server/ledger/ledger.ts calls it). In order:
--  1. the key's advisory lock, then its lookup: a repeated cause finds its transfer ('existing');
--  2. both balance rows locked in one global order (owner, book, asset, slot; text in "C"
--     collation), so transfers over the same books in opposite directions never deadlock;
--  3. a customer's debit checked against its balance before anything is written: a short one
--     answers 'insufficient' and writes nothing;
--  4. both balances, the transfer row and the sync change log (each customer side as a wallet
--     record, each touched customer account's balances).
CREATE FUNCTION ledger_transfer(
  p_key text, p_kind text, p_asset text,
  p_debit_owner bigint, p_debit_book text, p_debit_slot smallint,
  p_credit_owner bigint, p_credit_book text, p_credit_slot smallint,
  p_amount bigint, p_ref_table text, p_ref_id text, p_at timestamptz
) RETURNS TABLE (
  status text, id bigint, created_at timestamptz, debit_balance_after bigint, credit_balance_after bigint
) LANGUAGE plpgsql AS $$
DECLARE
  v_found ledger_transfers%ROWTYPE;
  v_locked integer;
  v_debit bigint;
  v_credit bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('ledger:' || p_key, 0));
  SELECT * INTO v_found FROM ledger_transfers t WHERE t.key = p_key;
  IF FOUND THEN
    RETURN QUERY SELECT 'existing'::text, v_found.id, v_found.created_at,
      v_found.debit_balance_after, v_found.credit_balance_after;
    RETURN;
  END IF;
  FOR attempt IN 1..2 LOOP
    SELECT count(*) INTO v_locked FROM (
      SELECT 1 FROM ledger_balances b
       WHERE (b.owner = p_debit_owner AND b.book = p_debit_book AND b.asset = p_asset AND b.slot = p_debit_slot)
          OR (b.owner = p_credit_owner AND b.book = p_credit_book AND b.asset = p_asset AND b.slot = p_credit_slot)
       ORDER BY b.owner, b.book COLLATE "C", b.asset COLLATE "C", b.slot
       FOR UPDATE
    ) locked;
    EXIT WHEN v_locked = 2;
    -- A book's first use: its row starts at 0 (books are opened with their account, so this is rare).
    INSERT INTO ledger_balances (owner, book, asset, slot, balance)
    VALUES (p_debit_owner, p_debit_book, p_asset, p_debit_slot, 0),
           (p_credit_owner, p_credit_book, p_asset, p_credit_slot, 0)
    ON CONFLICT DO NOTHING;
  END LOOP;
  UPDATE ledger_balances b SET balance = b.balance - p_amount
   WHERE b.owner = p_debit_owner AND b.book = p_debit_book AND b.asset = p_asset AND b.slot = p_debit_slot
     AND (p_debit_owner = 0 OR b.balance >= p_amount)
  RETURNING b.balance INTO v_debit;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'insufficient'::text, NULL::bigint, NULL::timestamptz, NULL::bigint, NULL::bigint;
    RETURN;
  END IF;
  UPDATE ledger_balances b SET balance = b.balance + p_amount
   WHERE b.owner = p_credit_owner AND b.book = p_credit_book AND b.asset = p_asset AND b.slot = p_credit_slot
  RETURNING b.balance INTO v_credit;
  INSERT INTO ledger_transfers (key, kind, asset, debit_owner, debit_book, credit_owner, credit_book, amount,
                                debit_balance_after, credit_balance_after, ref_table, ref_id, created_at)
  VALUES (p_key, p_kind, p_asset, p_debit_owner, p_debit_book, p_credit_owner, p_credit_book, p_amount,
          CASE WHEN p_debit_owner <> 0 THEN v_debit END, CASE WHEN p_credit_owner <> 0 THEN v_credit END,
          p_ref_table, p_ref_id, p_at)
  RETURNING * INTO v_found;
  INSERT INTO sync_changes (collection, scope_id, record_id, deleted, at)
  SELECT DISTINCT c.collection, c.scope_id, c.record_id, false, p_at
    FROM (VALUES ('records', p_debit_owner, v_found.id || '-d'),
                 ('records', p_credit_owner, v_found.id || '-c'),
                 ('balances', p_debit_owner, p_debit_owner::text),
                 ('balances', p_credit_owner, p_credit_owner::text)) AS c(collection, scope_id, record_id)
   WHERE c.scope_id <> 0;
  RETURN QUERY SELECT 'applied'::text, v_found.id, v_found.created_at, v_debit, v_credit;
END;
$$;
--> statement-breakpoint
-- The platform's books exist from the start, every slot of each asset: a transfer never creates
-- a platform row on its hot path.
INSERT INTO ledger_balances (owner, book, asset, slot, balance)
SELECT 0, book, asset, slot, 0
  FROM unnest(ARRAY['omnibus_bep20', 'omnibus_trc20', 'hot_wallet', 'fee_revenue', 'adjustments',
                    'incentive_expense', 'interest_expense', 'exchange_inventory', 'rounding', 'dust']) AS book,
       unnest(ARRAY['USDT', 'RAB']) AS asset,
       generate_series(0, 15) AS slot
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Accounts opened before this migration get their books too (new accounts open them at creation).
INSERT INTO ledger_balances (owner, book, asset, slot, balance)
SELECT a.id, book, asset, 0, 0
  FROM accounts a, unnest(ARRAY['cash', 'hosting', 'held']) AS book, unnest(ARRAY['USDT', 'RAB']) AS asset
ON CONFLICT DO NOTHING;
