/**
 * Logout's local part (CONTRACT.md "The client's own storage"): the UI first asks how many
 * commands are pending (to warn the user), then the pending ones are marked cancelled and the
 * user's databases deleted, so the next user of this browser never sees them.
 */
import type { SyncStorage } from './storage.js';

/** How many commands of `userId` are pending (queued or sending): what logout would cancel. Read-only. */
export async function pendingCountOf(storage: SyncStorage, userId: string): Promise<number> {
  return storage.userStores(userId).outbox.countPending();
}

/**
 * Marks every pending command of `userId` cancelled, then deletes all of the user's databases.
 * Cancelling first means no tab sends them even if the deletion is delayed by another tab's open
 * connection. A command already on the wire may still take effect on the server (it cannot be
 * called back). Idempotent; storage errors propagate.
 */
export async function discardUserData(
  storage: SyncStorage,
  userId: string,
  nowMs: number,
): Promise<{ cancelled: number }> {
  const cancelled = await storage.userStores(userId).outbox.cancelPending(nowMs);
  await storage.deleteUser(userId);
  return { cancelled };
}
