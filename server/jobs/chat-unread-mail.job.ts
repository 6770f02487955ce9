/**
 * E-mails customers an agent reply unread for 2 minutes, at most once per 10 minutes per user
 * (docs/protocol.md §35.5). Tried every 30 seconds; idempotent: a batch of replies is marked
 * mailed in the same transaction that finds it.
 */
import type { ChatService } from '../services/chat.service.js';
import { JobName, type Job } from './scheduler.js';

export const CHAT_UNREAD_MAIL_EVERY_SECONDS = 30;

export function chatUnreadMailJob(chat: ChatService): Job {
  return {
    name: JobName.chatUnreadMail,
    everySeconds: CHAT_UNREAD_MAIL_EVERY_SECONDS,
    // One run per 30-second slot (UTC).
    periodOf: (now) => String(Math.floor(now.getTime() / (CHAT_UNREAD_MAIL_EVERY_SECONDS * 1000))),
    run: (tx, now) => chat.mailUnread(tx, now),
  };
}
