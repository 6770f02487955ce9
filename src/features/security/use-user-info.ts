/** The caller's profile for the security pages: which form to show (set or change) and the address codes go to. */
import { useCallback, useEffect, useState } from 'react';
import type { UserInfo } from '../../../contract/api/user.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';

export function useUserInfo(): { user: UserInfo | null; reload(): void } {
  const handle = useOutcome();
  const [user, setUser] = useState<UserInfo | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    void send('user-info').then((outcome) => {
      if (live && handle(outcome)) setUser(outcome.data);
    });
    return () => {
      live = false;
    };
  }, [handle, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { user, reload };
}
