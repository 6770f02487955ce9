/** The feedback sync collection: the user's own feedback, read by id. */
import { feedbackByIds } from '../repositories/content.repository.js';
import { toFeedbackRecord } from './records.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const feedbackCollections = defineCollections({
  feedback: async (db, userId, ids) =>
    (await feedbackByIds(db, userId, numericIds(ids))).map(toFeedbackRecord),
});
