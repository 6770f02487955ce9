/**
 * Starts the worker's sync engine and the chat socket once a session exists, and pulls again when the window gets
 * the focus back, and sends the outbox and pulls when the network returns. The engine itself pulls on start, on reconnect, every
 * minute and after each confirmed command; persistent storage is asked here because
 * `navigator.storage.persist()` exists on the window only.
 */
import { useEffect, useRef } from 'react';
import { requestPersistentStorage } from '../../sync/persist.js';
import { afterFirstPage } from './first-page.js';
import { send } from './worker-client.js';

export function useSyncEngine(loggedIn: boolean): void {
  const started = useRef(false);
  useEffect(() => {
    if (!loggedIn) return;
    // Once the first page is on screen (it reads what is stored, not the worker).
    afterFirstPage(() => {
      if (!started.current) {
        started.current = true;
        void send('sync-start');
      }
      // The chat socket (idempotent; a new session's token opens a new one).
      void send('chat-connect');
      void requestPersistentStorage();
    });
    const pull = () => void send('sync-pull');
    // A worker does not always hear the window's `online` (Chromium's emulated offline does
    // not reach it), so the window also asks for the queued commands to be sent.
    const reconnect = () => {
      void send('outbox-drain');
      void send('chat-connect');
      pull();
    };
    window.addEventListener('focus', pull);
    window.addEventListener('online', reconnect);
    return () => {
      window.removeEventListener('focus', pull);
      window.removeEventListener('online', reconnect);
    };
  }, [loggedIn]);
}
