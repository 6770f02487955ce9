/** SQL about uploaded images (the bytes live in DATA_DIR/uploads). */
import { eq } from 'drizzle-orm';
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
