/** The chat sync collections: the user's messages (never internal notes) and the read marks. */
import { chatMessageRecords, chatReadsRecords } from './chat.service.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const chatCollections = defineCollections({
  chat_messages: (db, userId, ids) => chatMessageRecords(db, userId, numericIds(ids)),
  chat_reads: (db, userId, ids) => chatReadsRecords(db, userId, ids),
});
