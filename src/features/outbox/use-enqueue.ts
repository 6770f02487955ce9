/**
 * Queues commands in the outbox from a form: `busy` while it runs, the first refusal shown in a
 * toast in the user's language and returned (so the form can mark its field), null when every
 * command is queued (the form says so and clears itself).
 */
import { useCallback, useState } from 'react';
import type { EnqueueInput } from '../../../worker/commands.js';
import { send } from '../../app/worker-client.js';
import { toast } from '../../ui/toast.js';
import { useRefusalMessage, type Refusal } from './messages.js';

export function useEnqueue() {
  const refusal = useRefusalMessage();
  const [busy, setBusy] = useState(false);
  const enqueue = useCallback(
    async (...commands: EnqueueInput[]): Promise<Refusal | null> => {
      setBusy(true);
      try {
        for (const command of commands) {
          const result = await send('outbox-enqueue', command);
          if (result.kind === 'refused') {
            toast(refusal(result));
            return result;
          }
        }
        return null;
      } finally {
        setBusy(false);
      }
    },
    [refusal],
  );
  return { busy, enqueue };
}
