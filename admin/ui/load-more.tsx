/** The button under a paged list that reads its next page (shown while there is one). */
import { Button } from 'antd';
import { useI18n } from '../i18n/i18n.js';

export function LoadMore({ list }: { list: { hasMore: boolean; loadMore(): Promise<void> } }) {
  const { t } = useI18n();
  if (!list.hasMore) return null;
  return (
    <div className="console-more">
      <Button onClick={() => void list.loadMore()}>{t('common.more')}</Button>
    </div>
  );
}
