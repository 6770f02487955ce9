/** SQL about uploaded images (the bytes live in DATA_DIR/uploads). */
import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { uploads } from '../db/schema.js';

export type UploadRow = typeof uploads.$inferSelect;

export async function insertUpload(db: Executor, upload: typeof uploads.$inferInsert): Promise<void> {
  await db.insert(uploads).values(upload);
}

export async function findUpload(db: Executor, id: string): Promise<UploadRow | undefined> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row;
}

export async function findUploads(db: Executor, ids: string[]): Promise<UploadRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(uploads).where(inArray(uploads.id, ids));
}

export async function setUploadPurpose(db: Executor, ids: string[], purpose: string): Promise<void> {
  if (ids.length === 0) return;
  await db.update(uploads).set({ purpose }).where(inArray(uploads.id, ids));
}
