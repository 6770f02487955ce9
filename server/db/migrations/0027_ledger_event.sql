-- One ledger event (one transfer or several, such as a transfer and its fee) in ONE round trip
-- (server/ledger/ledger.ts calls it for every event; it supersedes ledger_transfer of 0005, kept
-- only for a server of the previous release still running during a deploy). In order:
--  1. every key's advisory lock, in one order (text in "C" collation), then the keys' lookup: a
--     repeated cause finds its transfer (applied false) and moves nothing again;
--  2. every balance row of the new transfers locked in one global order (owner, book, asset,
--     slot; text in "C" collation), created at 0 on a book's first use, so that events over the
--     same books in any directions never deadlock;
--  3. each customer debit checked where it comes in the event (the balance read when its row
--     was locked plus what the event's earlier transfers moved) before anything is written: a
--     short one answers one row 'insufficient' and writes nothing, so a caller that goes on keeps
--     no half event (a single transfer's check is its conditional update, which then writes
--     nothing either);
--  4. per transfer, in the event's order: both balances, the transfer (ids follow the event's
--     order; each customer side with its balance right after it) and the sync change log (each
--     customer side as a wallet record, each touched customer account's balances).
-- The JSON is read once into arrays; every statement after reads or writes rows by primary key or
-- unique index (joining ledger tables with the JSON set itself, which the planner guesses at 100
-- rows, made it scan whole tables).
-- p_transfers: a JSON array of {key, kind, asset, debit_owner, debit_book, debit_slot,
-- credit_owner, credit_book, credit_slot, amount, ref_table, ref_id}; amounts in minor units.
-- Answers one row per transfer in the event's order (n from 1): 'applied' or 'existing' with the
-- transfer as stored; or one row 'insufficient'.
CREATE FUNCTION ledger_event(p_transfers jsonb, p_at timestamptz)
RETURNS TABLE (
  n integer, status text, id bigint, key text, kind text, asset text,
  debit_owner bigint, debit_book text, credit_owner bigint, credit_book text, amount bigint,
  debit_balance_after bigint, credit_balance_after bigint, ref_table text, ref_id text,
  created_at timestamptz
) LANGUAGE plpgsql
-- Its statements' plans are made once per connection: a custom plan per call (what PostgreSQL
-- keeps choosing for statements over arrays) cost more than the whole event's execution.
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
DECLARE
  k text[]; t_kind text[]; t_asset text[];
  d_owner bigint[]; d_book text[]; d_slot smallint[];
  c_owner bigint[]; c_book text[]; c_slot smallint[];
  t_amount bigint[]; t_ref_table text[]; t_ref_id text[];
  v_count integer;
  v_existing text[];
  v_fresh boolean[];
  v_row record;
  v_balance bigint;
  r_owner bigint[] := '{}';
  r_book text[] := '{}';
  r_asset text[] := '{}';
  r_slot smallint[] := '{}';
  r_balance bigint[] := '{}';
  v_debit bigint;
  v_credit bigint;
  v_stored ledger_transfers%ROWTYPE;
BEGIN
  -- The event's columns as arrays, in its order (the JSON is read once, by one function scan,
  -- which yields its elements in order to every aggregate alike).
  SELECT array_agg(x.key), array_agg(x.kind), array_agg(x.asset),
         array_agg(x.debit_owner), array_agg(x.debit_book), array_agg(x.debit_slot),
         array_agg(x.credit_owner), array_agg(x.credit_book), array_agg(x.credit_slot),
         array_agg(x.amount), array_agg(x.ref_table), array_agg(x.ref_id), count(*)
    INTO k, t_kind, t_asset, d_owner, d_book, d_slot, c_owner, c_book, c_slot, t_amount, t_ref_table, t_ref_id, v_count
    FROM jsonb_to_recordset(p_transfers) AS x(key text, kind text, asset text,
           debit_owner bigint, debit_book text, debit_slot smallint,
           credit_owner bigint, credit_book text, credit_slot smallint, amount bigint,
           ref_table text, ref_id text);
  IF v_count = 0 THEN
    RETURN;
  END IF;
  -- 1. The keys' locks, in one order (unnest yields the sorted array in order), then their lookup.
  IF v_count = 1 THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('ledger:' || k[1], 0));
  ELSE
    PERFORM pg_advisory_xact_lock(hashtextextended('ledger:' || s.k, 0))
       FROM unnest(ARRAY(SELECT DISTINCT u COLLATE "C" FROM unnest(k) AS u ORDER BY 1)) AS s(k);
  END IF;
  v_existing := ARRAY(SELECT t.key FROM ledger_transfers t WHERE t.key = ANY (k));
  v_fresh := ARRAY(SELECT u <> ALL (v_existing) FROM unnest(k) AS u);
  -- 2. The new transfers' balance rows, one by one through the primary key, in the global order,
  -- each read as it is once locked.
  FOR v_row IN
    SELECT DISTINCT s.owner, s.book, s.asset, s.slot,
           s.book COLLATE "C" AS book_c, s.asset COLLATE "C" AS asset_c
      FROM unnest(d_owner, d_book, d_slot, c_owner, c_book, c_slot, t_asset, v_fresh)
             AS x(d_owner, d_book, d_slot, c_owner, c_book, c_slot, asset, fresh),
           LATERAL (VALUES (x.d_owner, x.d_book, x.asset, x.d_slot),
                           (x.c_owner, x.c_book, x.asset, x.c_slot)) AS s(owner, book, asset, slot)
     WHERE x.fresh
     ORDER BY s.owner, book_c, asset_c, s.slot
  LOOP
    SELECT b.balance INTO v_balance FROM ledger_balances b
      WHERE b.owner = v_row.owner AND b.book = v_row.book AND b.asset = v_row.asset AND b.slot = v_row.slot
      FOR UPDATE;
    IF NOT FOUND THEN
      -- A book's first use: its row starts at 0 (books are opened with their account, so this is rare).
      INSERT INTO ledger_balances (owner, book, asset, slot, balance)
      VALUES (v_row.owner, v_row.book, v_row.asset, v_row.slot, 0) ON CONFLICT DO NOTHING;
      SELECT b.balance INTO v_balance FROM ledger_balances b
        WHERE b.owner = v_row.owner AND b.book = v_row.book AND b.asset = v_row.asset AND b.slot = v_row.slot
        FOR UPDATE;
    END IF;
    r_owner := r_owner || v_row.owner;
    r_book := r_book || v_row.book;
    r_asset := r_asset || v_row.asset;
    r_slot := r_slot || v_row.slot;
    r_balance := r_balance || v_balance;
  END LOOP;
  -- 3. Several new transfers: each customer debit checked where it comes, on the locked balances,
  -- before any write (one new transfer's check is its own conditional update below).
  IF v_count - cardinality(v_existing) > 1 THEN
    FOR i IN 1..v_count LOOP
      CONTINUE WHEN NOT v_fresh[i];
      FOR j IN 1..cardinality(r_owner) LOOP
        IF r_owner[j] = d_owner[i] AND r_book[j] = d_book[i] AND r_asset[j] = t_asset[i] AND r_slot[j] = d_slot[i] THEN
          IF d_owner[i] <> 0 AND r_balance[j] < t_amount[i] THEN
            n := i;
            status := 'insufficient';
            RETURN NEXT;
            RETURN;
          END IF;
          r_balance[j] := r_balance[j] - t_amount[i];
        ELSIF r_owner[j] = c_owner[i] AND r_book[j] = c_book[i] AND r_asset[j] = t_asset[i] AND r_slot[j] = c_slot[i] THEN
          r_balance[j] := r_balance[j] + t_amount[i];
        END IF;
      END LOOP;
    END LOOP;
  END IF;
  -- 4. Each transfer in the event's order.
  FOR i IN 1..v_count LOOP
    IF v_fresh[i] THEN
      UPDATE ledger_balances b SET balance = b.balance - t_amount[i]
       WHERE b.owner = d_owner[i] AND b.book = d_book[i] AND b.asset = t_asset[i] AND b.slot = d_slot[i]
         AND (d_owner[i] = 0 OR b.balance >= t_amount[i])
      RETURNING b.balance INTO v_debit;
      IF NOT FOUND THEN
        -- Only a single new transfer gets here (several were all checked above): nothing written.
        n := i;
        status := 'insufficient';
        RETURN NEXT;
        RETURN;
      END IF;
      UPDATE ledger_balances b SET balance = b.balance + t_amount[i]
       WHERE b.owner = c_owner[i] AND b.book = c_book[i] AND b.asset = t_asset[i] AND b.slot = c_slot[i]
      RETURNING b.balance INTO v_credit;
      INSERT INTO ledger_transfers (key, kind, asset, debit_owner, debit_book, credit_owner, credit_book, amount,
                                    debit_balance_after, credit_balance_after, ref_table, ref_id, created_at)
      VALUES (k[i], t_kind[i], t_asset[i], d_owner[i], d_book[i], c_owner[i], c_book[i], t_amount[i],
              CASE WHEN d_owner[i] <> 0 THEN v_debit END, CASE WHEN c_owner[i] <> 0 THEN v_credit END,
              t_ref_table[i], t_ref_id[i], p_at)
      RETURNING * INTO v_stored;
      INSERT INTO sync_changes (collection, scope_id, record_id, deleted, at)
      SELECT DISTINCT c.collection, c.scope_id, c.record_id, false, p_at
        FROM (VALUES ('records', d_owner[i], v_stored.id || '-d'),
                     ('records', c_owner[i], v_stored.id || '-c'),
                     ('balances', d_owner[i], d_owner[i]::text),
                     ('balances', c_owner[i], c_owner[i]::text)) AS c(collection, scope_id, record_id)
       WHERE c.scope_id <> 0;
      status := 'applied';
    ELSE
      SELECT * INTO v_stored FROM ledger_transfers t WHERE t.key = k[i];
      status := 'existing';
    END IF;
    n := i;
    id := v_stored.id;
    key := v_stored.key;
    kind := v_stored.kind;
    asset := v_stored.asset;
    debit_owner := v_stored.debit_owner;
    debit_book := v_stored.debit_book;
    credit_owner := v_stored.credit_owner;
    credit_book := v_stored.credit_book;
    amount := v_stored.amount;
    debit_balance_after := v_stored.debit_balance_after;
    credit_balance_after := v_stored.credit_balance_after;
    ref_table := v_stored.ref_table;
    ref_id := v_stored.ref_id;
    created_at := v_stored.created_at;
    RETURN NEXT;
  END LOOP;
END;
$$;
