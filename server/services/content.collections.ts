/** The content's sync collections (public): news, notices and quotes, read by id. */
import { newsByIds, noticesByIds, quotesBySymbols } from '../repositories/content.repository.js';
import { toNewsRecord, toNoticeRecord, toQuoteRecord } from './records.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const contentCollections = defineCollections({
  news: async (db, _scope, ids) => (await newsByIds(db, numericIds(ids))).map(toNewsRecord),
  notices: async (db, _scope, ids) => (await noticesByIds(db, numericIds(ids))).map(toNoticeRecord),
  quotes: async (db, _scope, ids) => (await quotesBySymbols(db, ids)).map(toQuoteRecord),
});
