/**
 * The round customer-service button's name and unread count (a lazy chunk: the count reads
 * IndexedDB through zod schemas, which the login page must not load). The visible count is
 * hidden from screen readers; the button's name says it in words.
 */
import { useTranslation } from 'react-i18next';
import { useUnreadCount } from './use-chat.js';

export default function ServiceUnread() {
  const { t } = useTranslation();
  const unread = useUnreadCount();
  return (
    <>
      <span className="visually-hidden">
        {unread > 0 ? t('common.customer_service_unread', { count: unread }) : t('common.customer_service')}
      </span>
      {unread > 0 && (
        <span className="service-button__count" aria-hidden="true" data-testid="service-unread">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </>
  );
}
