-- An event of two transfers from one book (a payment and its fee, the commonest event after one
-- transfer) in as few statements as 0029 gives one transfer: the application sends every event
-- of two here (server/ledger/ledger.repository.ts), and any other shape of two (two debit rows, a
-- credit row that is the debit's or the other's) goes to 0031's ledger_event_many, unchanged.
--  1. both keys' advisory locks in one order (text in "C" collation), then one lookup of both: a
--     repeat, or part of one, hands the event to ledger_event_general, as 0031 does;
--  2. the three balance rows updated once each in the global order of 0027 (owner, book, asset,
--     slot): the debit row by both amounts where a customer's balance covers their sum (0027's
--     check of the second debit, which comes last), each credit by its amount; a row missing is
--     created at 0 first (a platform book, or a book's first credit);
--  3. a refusal takes back the credits already made and hands the event to ledger_event_general,
--     which answers 'insufficient' with the transfer's number (or applies it, when the money came
--     in meanwhile);
--  4. both transfers with their balances after (the debit's after the first is its balance now
--     plus the second amount), and their sync change log in one statement: each customer side as a
--     wallet record, each account's balances once.
-- The rows are scalars and each row's update is written out (the two credits' alike): the same
-- function with the rows in arrays and one update for all three cost 10 to 13 % more CPU per event
-- in the three quiet rounds of six alternated (the three under load: within their noise), most of
-- what this path gains, as session 12 found arrays in PL/pgSQL costing more than statements.
-- No loop over the event's transfers: on pgbench (prepared, 8 clients, four alternated
-- rounds with a CHECKPOINT before each), a transfer with its fee took 13 to 16 % less machine CPU
-- per event than through 0031 (973 to 1,198 against 1,131 to 1,341 microseconds; one transfer
-- 738 to 810), 1.30 to 1.49 times one transfer's cost instead of 1.50 to 1.77.
CREATE FUNCTION ledger_event_pair(p_transfers jsonb, p_at timestamptz)
RETURNS TABLE (
  n integer, status text, id bigint, key text, kind text, asset text,
  debit_owner bigint, debit_book text, credit_owner bigint, credit_book text, amount bigint,
  debit_balance_after bigint, credit_balance_after bigint, ref_table text, ref_id text,
  created_at timestamptz
) LANGUAGE plpgsql
AS $$
#variable_conflict use_column
DECLARE
  t1 jsonb := p_transfers->0;
  t2 jsonb := p_transfers->1;
  v_k1 text := t1->>'key';
  v_k2 text := t2->>'key';
  v_asset text := t1->>'asset';
  v_d_owner bigint := (t1->>'debit_owner')::bigint;
  v_d_book text := t1->>'debit_book';
  v_d_slot smallint := (t1->>'debit_slot')::smallint;
  v_c1_owner bigint := (t1->>'credit_owner')::bigint;
  v_c1_book text := t1->>'credit_book';
  v_c1_slot smallint := (t1->>'credit_slot')::smallint;
  v_c2_owner bigint := (t2->>'credit_owner')::bigint;
  v_c2_book text := t2->>'credit_book';
  v_c2_slot smallint := (t2->>'credit_slot')::smallint;
  v_a1 bigint := (t1->>'amount')::bigint;
  v_a2 bigint := (t2->>'amount')::bigint;
  v_d bigint; v_c1 bigint; v_c2 bigint;
  v_order integer[];
  v_done integer := 0;
  v_row integer;
  v_id1 bigint; v_id2 bigint;
BEGIN
  IF jsonb_array_length(p_transfers) <> 2 OR v_k1 = v_k2 OR t2->>'asset' <> v_asset
     OR (t2->>'debit_owner')::bigint <> v_d_owner OR t2->>'debit_book' <> v_d_book
     OR (t2->>'debit_slot')::smallint <> v_d_slot
     OR (v_c1_owner, v_c1_book, v_c1_slot) = (v_d_owner, v_d_book, v_d_slot)
     OR (v_c2_owner, v_c2_book, v_c2_slot) = (v_d_owner, v_d_book, v_d_slot)
     OR (v_c1_owner, v_c1_book, v_c1_slot) = (v_c2_owner, v_c2_book, v_c2_slot) THEN
    RETURN QUERY SELECT * FROM ledger_event_many(p_transfers, p_at);
    RETURN;
  END IF;
  -- 1. The keys' locks in one order, then one lookup of both.
  PERFORM pg_advisory_xact_lock(hashtextextended('ledger:' || least(v_k1 COLLATE "C", v_k2 COLLATE "C"), 0));
  PERFORM pg_advisory_xact_lock(hashtextextended('ledger:' || greatest(v_k1 COLLATE "C", v_k2 COLLATE "C"), 0));
  PERFORM FROM ledger_transfers s WHERE s.key = v_k1 OR s.key = v_k2;
  IF FOUND THEN
    RETURN QUERY SELECT * FROM ledger_event_general(p_transfers, p_at);
    RETURN;
  END IF;
  -- 2. and 3. The rows (1 the debit, 2 the first credit, 3 the second) in the global order (the
  -- asset is the same), by an insertion of each into the ones before it.
  v_order := ARRAY[1, 2, 3];
  IF (v_c1_owner, v_c1_book COLLATE "C", v_c1_slot) < (v_d_owner, v_d_book COLLATE "C", v_d_slot) THEN
    v_order := ARRAY[2, 1, 3];
  END IF;
  FOR x IN REVERSE 2..1 LOOP
    EXIT WHEN (v_c2_owner, v_c2_book COLLATE "C", v_c2_slot) >
              (CASE v_order[x] WHEN 1 THEN v_d_owner ELSE v_c1_owner END,
               CASE v_order[x] WHEN 1 THEN v_d_book ELSE v_c1_book END COLLATE "C",
               CASE v_order[x] WHEN 1 THEN v_d_slot ELSE v_c1_slot END);
    v_order[x + 1] := v_order[x];
    v_order[x] := 3;
  END LOOP;
  FOREACH v_row IN ARRAY v_order LOOP
    IF v_row = 1 THEN
      UPDATE ledger_balances b SET balance = b.balance - v_a1 - v_a2
       WHERE b.owner = v_d_owner AND b.book = v_d_book AND b.asset = v_asset AND b.slot = v_d_slot
         AND (v_d_owner = 0 OR b.balance >= v_a1 + v_a2)
      RETURNING b.balance INTO v_d;
      IF NOT FOUND AND v_d_owner = 0 THEN
        INSERT INTO ledger_balances (owner, book, asset, slot, balance)
        VALUES (v_d_owner, v_d_book, v_asset, v_d_slot, 0) ON CONFLICT DO NOTHING;
        UPDATE ledger_balances b SET balance = b.balance - v_a1 - v_a2
         WHERE b.owner = v_d_owner AND b.book = v_d_book AND b.asset = v_asset AND b.slot = v_d_slot
        RETURNING b.balance INTO v_d;
      END IF;
      IF NOT FOUND THEN
        -- Refused: the credits made before it taken back, and the event handed on as 0031 does.
        FOR x IN 1..v_done LOOP
          IF v_order[x] = 2 THEN
            UPDATE ledger_balances b SET balance = b.balance - v_a1
             WHERE b.owner = v_c1_owner AND b.book = v_c1_book AND b.asset = v_asset AND b.slot = v_c1_slot;
          ELSE
            UPDATE ledger_balances b SET balance = b.balance - v_a2
             WHERE b.owner = v_c2_owner AND b.book = v_c2_book AND b.asset = v_asset AND b.slot = v_c2_slot;
          END IF;
        END LOOP;
        RETURN QUERY SELECT * FROM ledger_event_general(p_transfers, p_at);
        RETURN;
      END IF;
    ELSIF v_row = 2 THEN
      UPDATE ledger_balances b SET balance = b.balance + v_a1
       WHERE b.owner = v_c1_owner AND b.book = v_c1_book AND b.asset = v_asset AND b.slot = v_c1_slot
      RETURNING b.balance INTO v_c1;
      IF NOT FOUND THEN
        INSERT INTO ledger_balances (owner, book, asset, slot, balance)
        VALUES (v_c1_owner, v_c1_book, v_asset, v_c1_slot, 0) ON CONFLICT DO NOTHING;
        UPDATE ledger_balances b SET balance = b.balance + v_a1
         WHERE b.owner = v_c1_owner AND b.book = v_c1_book AND b.asset = v_asset AND b.slot = v_c1_slot
        RETURNING b.balance INTO v_c1;
      END IF;
    ELSE
      UPDATE ledger_balances b SET balance = b.balance + v_a2
       WHERE b.owner = v_c2_owner AND b.book = v_c2_book AND b.asset = v_asset AND b.slot = v_c2_slot
      RETURNING b.balance INTO v_c2;
      IF NOT FOUND THEN
        INSERT INTO ledger_balances (owner, book, asset, slot, balance)
        VALUES (v_c2_owner, v_c2_book, v_asset, v_c2_slot, 0) ON CONFLICT DO NOTHING;
        UPDATE ledger_balances b SET balance = b.balance + v_a2
         WHERE b.owner = v_c2_owner AND b.book = v_c2_book AND b.asset = v_asset AND b.slot = v_c2_slot
        RETURNING b.balance INTO v_c2;
      END IF;
    END IF;
    v_done := v_done + 1;
  END LOOP;
  -- 4. The transfers in the event's order, their change log, and the answer.
  INSERT INTO ledger_transfers (key, kind, asset, debit_owner, debit_book, credit_owner, credit_book, amount,
                                debit_balance_after, credit_balance_after, ref_table, ref_id, created_at)
  VALUES (v_k1, t1->>'kind', v_asset, v_d_owner, v_d_book, v_c1_owner, v_c1_book, v_a1,
          CASE WHEN v_d_owner <> 0 THEN v_d + v_a2 END, CASE WHEN v_c1_owner <> 0 THEN v_c1 END,
          t1->>'ref_table', t1->>'ref_id', p_at)
  RETURNING ledger_transfers.id INTO v_id1;
  INSERT INTO ledger_transfers (key, kind, asset, debit_owner, debit_book, credit_owner, credit_book, amount,
                                debit_balance_after, credit_balance_after, ref_table, ref_id, created_at)
  VALUES (v_k2, t2->>'kind', v_asset, v_d_owner, v_d_book, v_c2_owner, v_c2_book, v_a2,
          CASE WHEN v_d_owner <> 0 THEN v_d END, CASE WHEN v_c2_owner <> 0 THEN v_c2 END,
          t2->>'ref_table', t2->>'ref_id', p_at)
  RETURNING ledger_transfers.id INTO v_id2;
  INSERT INTO sync_changes (collection, scope_id, record_id, deleted, at)
  SELECT c.collection, c.scope_id, c.record_id, false, p_at
    FROM (VALUES ('records', v_d_owner, v_id1 || '-d', true),
                 ('records', v_c1_owner, v_id1 || '-c', true),
                 ('balances', v_d_owner, v_d_owner::text, true),
                 ('balances', v_c1_owner, v_c1_owner::text, v_c1_owner <> v_d_owner),
                 ('records', v_d_owner, v_id2 || '-d', true),
                 ('records', v_c2_owner, v_id2 || '-c', true),
                 ('balances', v_c2_owner, v_c2_owner::text, v_c2_owner <> v_d_owner AND v_c2_owner <> v_c1_owner))
         AS c(collection, scope_id, record_id, fresh)
   WHERE c.scope_id <> 0 AND c.fresh;
  RETURN QUERY VALUES
    (1, 'applied', v_id1, v_k1, t1->>'kind', v_asset, v_d_owner, v_d_book, v_c1_owner, v_c1_book, v_a1,
     CASE WHEN v_d_owner <> 0 THEN v_d + v_a2 END, CASE WHEN v_c1_owner <> 0 THEN v_c1 END,
     t1->>'ref_table', t1->>'ref_id', p_at),
    (2, 'applied', v_id2, v_k2, t2->>'kind', v_asset, v_d_owner, v_d_book, v_c2_owner, v_c2_book, v_a2,
     CASE WHEN v_d_owner <> 0 THEN v_d END, CASE WHEN v_c2_owner <> 0 THEN v_c2 END,
     t2->>'ref_table', t2->>'ref_id', p_at);
END;
$$;
