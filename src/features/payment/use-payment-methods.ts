/**
 * Live reads of the withdrawal methods page: the list the worker stored (`payment-list`, asked
 * for again each time the page opens), so the page shows it offline at once.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { PaymentMethodRecord } from '../../../client-db/schema.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { userDatabase } from '../../../client-db/use-sync-db.js';

/**
 * Where the shown list stands: `loading` (asked, no answer yet), `fresh` (the server answered),
 * `saved` (the server was not reached; the list saved on this device is shown), `refused` (told
 * as a toast).
 */
export type ListState = 'loading' | 'fresh' | 'saved' | 'refused';

export interface PaymentMethodsView {
  /** Newest first; undefined while the stored list loads. */
  methods: PaymentMethodRecord[] | undefined;
  state: ListState;
}

export function usePaymentMethods(userId: string): PaymentMethodsView {
  const handle = useOutcome();
  const [state, setState] = useState<ListState>('loading');
  const methods = useLiveQuery(
    () => userDatabase(userId).paymentMethods.orderBy('createdAt').reverse().toArray(),
    [userId],
  );

  useEffect(() => {
    let live = true;
    void send('payment-list').then((result) => {
      if (!live) return;
      if (result.kind === 'refused') handle(result);
      setState(result.kind === 'ok' ? 'fresh' : result.kind === 'refused' ? 'refused' : 'saved');
    });
    return () => {
      live = false;
    };
  }, [userId, handle]);

  return { methods, state };
}
