/** The offline banner at the top of the shell, while the browser says there is no network. */
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** `navigator.onLine`, live. True where the browser cannot tell. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine !== false,
    () => true,
  );
}

export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  return (
    <div className="offline-banner" role="status" hidden={online}>
      {online ? '' : t('sync.offline')}
    </div>
  );
}
