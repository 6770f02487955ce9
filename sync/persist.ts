/**
 * Persistent storage: asks the browser not to evict this origin's IndexedDB under storage
 * pressure, so queued commands and synced data survive. Browsers expose `persist()` on the
 * window only (not in workers), so the worker's call is a no-op there and the UI may call this
 * same function; both are harmless to repeat.
 */

/** The part of StorageManager used here. */
export interface PersistentStorageLike {
  persist?: () => Promise<boolean>;
}

function defaultStorage(): PersistentStorageLike | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.storage;
}

/**
 * Asks for persistent storage. Returns whether it was granted, or null where the API is
 * missing. Never throws.
 */
export async function requestPersistentStorage(
  storage: PersistentStorageLike | undefined = defaultStorage(),
): Promise<boolean | null> {
  if (typeof storage?.persist !== 'function') return null;
  try {
    return await storage.persist();
  } catch {
    return null;
  }
}
