/** The chat sync collections: the user's messages (never internal notes) and the read marks. */
import { defineCollections } from './sync-collection.js';

export const chatCollections = defineCollections({
  chat_messages: async () => [],
  chat_reads: async () => [],
});
