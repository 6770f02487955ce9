/** Pulls once when a page opens, so its synced records are as fresh as the link allows. */
import { useEffect } from 'react';
import { send } from './worker-client.js';

export function usePullOnOpen(): void {
  useEffect(() => {
    void send('sync-pull');
  }, []);
}
