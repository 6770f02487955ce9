/**
 * The offline banner at the top of the shell: while the browser says there is no network, or
 * while the worker's calls get no answer at all (a flaky network the browser thinks is fine;
 * worker/reachability.ts tells every tab on a BroadcastChannel).
 */
import { useLayoutEffect, useRef, useSyncExternalStore, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { isLinkMessage, LINK_CHANNEL } from '../../contract/link.js';

type Link = 'online' | 'offline' | 'unreachable';

/** The last word of any tab's worker: true until one says its calls get no answer. */
let reachable = true;
const listeners = new Set<() => void>();
let channel: BroadcastChannel | null = null;

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  if (channel === null && typeof BroadcastChannel !== 'undefined') {
    channel = new BroadcastChannel(LINK_CHANNEL);
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (!isLinkMessage(event.data)) return;
      reachable = event.data.reachable;
      for (const listener of listeners) listener();
    };
  }
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

function linkNow(): Link {
  if (navigator.onLine === false) return 'offline';
  return reachable ? 'online' : 'unreachable';
}

/** The link to the server, live: the browser's network state and the workers' last word. */
export function useLink(): Link {
  return useSyncExternalStore(subscribe, linkNow, () => 'online');
}

/**
 * Keeps `--coffer-banner` on the shell equal to the banner's height while it shows, so the fixed
 * page header moves down by exactly that much, however many lines the message takes.
 */
function useBannerHeight(banner: RefObject<HTMLDivElement | null>, shown: boolean): void {
  useLayoutEffect(() => {
    const element = banner.current;
    const shell = element?.parentElement;
    if (!element || !shell) return;
    if (!shown) {
      shell.style.removeProperty('--coffer-banner');
      return;
    }
    const measure = () => shell.style.setProperty('--coffer-banner', `${element.offsetHeight}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [banner, shown]);
}

export function OfflineBanner() {
  const { t } = useTranslation();
  const link = useLink();
  const banner = useRef<HTMLDivElement>(null);
  useBannerHeight(banner, link !== 'online');
  return (
    <div ref={banner} className="offline-banner" role="status" hidden={link === 'online'}>
      {link === 'offline' ? t('sync.offline') : link === 'unreachable' ? t('sync.unreachable') : ''}
    </div>
  );
}
