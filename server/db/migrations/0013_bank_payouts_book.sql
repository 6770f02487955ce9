-- The platform's book of withdrawals paid by bank transfer (the USDT a bank-card withdrawal took
-- from its customer), every slot of each asset, like the other platform books (0005).
INSERT INTO ledger_balances (owner, book, asset, slot, balance)
SELECT 0, 'bank_payouts', asset, slot, 0
  FROM unnest(ARRAY['USDT', 'RAB']) AS asset,
       generate_series(0, 15) AS slot
ON CONFLICT DO NOTHING;
