/**
 * Tells the user, wherever they are in the app, when the server refused a command they queued
 * (a transfer from a frozen account, a balance that changed meanwhile): a toast naming the
 * command and the server's reason, in the user's language. A money page that follows its own
 * command tells the refusal itself and dismisses it from the outbox; so a refusal still
 * undismissed a moment after it arrived is one no page told. The command stays in the outbox,
 * where it can be retried or dismissed: nothing is lost. Refusals from before this page load are
 * not told again (the outbox lists them).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserDb } from '../../../client-db/use-sync-db.js';
import { toast } from '../../ui/toast.js';
import { refusalToTell } from './outbox-view.js';

/** How long a page following its own command has to tell a refusal (and dismiss it) first. */
const FOLLOWED_MS = 1500;

export function useRefusalNotices(): void {
  const { t } = useTranslation();
  const db = useUserDb();
  const since = useRef(Date.now());
  const told = useRef(new Set<string>());
  const refused = useLiveQuery(
    async () => (db === null ? [] : await db.outbox.where('state').equals('rejected').toArray()),
    [db],
    [],
  );
  useEffect(() => {
    if (db === null) return;
    for (const row of refused) {
      if (!refusalToTell(row, since.current) || told.current.has(row.id)) continue;
      told.current.add(row.id);
      // Not cleared on the next render: the id is marked told already, so the notice must still come.
      setTimeout(() => {
        void db.outbox.get(row.id).then((now) => {
          if (!now || !refusalToTell(now, since.current)) return;
          toast(
            t('outbox.refused_notice', {
              kind: t(`outbox.kind_${now.kind}`),
              message: now.answer?.message ?? '',
            }),
          );
        });
      }, FOLLOWED_MS);
    }
  }, [db, refused, t]);
}
