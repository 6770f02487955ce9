/**
 * Delivery (trade settlement) records (pages/order_detail/order_detail): the trades the
 * platform publishes, newest close first, from the public `delivery` collection, so the page
 * opens offline. It says plainly what they are: the platform's published trades, not the
 * customer's own positions, and nothing here changes a balance.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeliveryRecord } from '../../../contract/api/delivery.js';
import { send } from '../../app/worker-client.js';
import { publicDatabase, useSyncedAt } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { DateTime } from '../../ui/DateTime.js';
import { directionKey, leverageLabel, profitView } from './delivery-view.js';
import './delivery.css';
import { PagedRows, RECORDS_PAGE, usePaging } from '../../ui/RecordsSection.js';
import { CardSection } from '../../ui/Card.js';

const COLLECTIONS = ['delivery'] as const;

export default function DeliveryPage() {
  const { t } = useTranslation();
  const db = publicDatabase();
  const syncedAt = useSyncedAt(db, COLLECTIONS);
  const paging = usePaging(RECORDS_PAGE, 'delivery.more');
  // One more than shown, to know whether "more" has anything to add.
  const records = useLiveQuery(
    () =>
      db.delivery
        .orderBy('closeTime')
        .reverse()
        .limit(paging.shown + 1)
        .toArray(),
    [db, paging.shown],
  );
  useEffect(() => {
    void send('sync-pull');
  }, []);

  return (
    <div className="page-padding stack delivery-page">
      <CardSection id="delivery-what" className="card delivery-notice" title={t('delivery.what_title')}>
        <p>{t('delivery.what_text')}</p>
      </CardSection>
      <div>
        <AsOf syncedAt={syncedAt} />
      </div>
      {records !== undefined && records.length === 0 && <p className="card muted">{t('delivery.empty')}</p>}
      <PagedRows rows={records} paging={paging} className="delivery-list" label={t('delivery.list_label')}>
        {(record) => <Trade record={record} />}
      </PagedRows>
    </div>
  );
}

function Trade({ record }: { record: DeliveryRecord }) {
  const { t } = useTranslation();
  const profit = profitView(record.profitLoss);
  return (
    <li className="card delivery">
      <div className="delivery__head">
        <h3 className="delivery__symbol">
          {record.symbol}{' '}
          <span className={`badge delivery__direction delivery__direction--${record.direction}`}>
            {t(directionKey(record.direction))}
          </span>
        </h3>
        <p className={`delivery__profit delivery__profit--${profit.outcome}`}>
          <span className="visually-hidden">{t('delivery.profit_loss')} </span>
          {profit.text} <span className="record__unit">USDT</span>
        </p>
      </div>
      <p className="muted delivery__order">{t('delivery.order_no', { orderNo: record.orderNo })}</p>
      <dl className="figures delivery__figures">
        <dt>{t('delivery.open_price')}</dt>
        <dd>{record.openPrice}</dd>
        <dt>{t('delivery.close_price')}</dt>
        <dd>{record.closePrice}</dd>
        <dt>{t('delivery.open_time')}</dt>
        <dd>
          <DateTime at={record.openTime} style="short" />
        </dd>
        <dt>{t('delivery.close_time')}</dt>
        <dd>
          <DateTime at={record.closeTime} style="short" />
        </dd>
        <dt>{t('delivery.lots')}</dt>
        <dd>{record.lots}</dd>
        <dt>{t('delivery.leverage')}</dt>
        <dd>{leverageLabel(record.leverage)}</dd>
        <dt>{t('delivery.margin')}</dt>
        <dd>{record.margin} USDT</dd>
        <dt>{t('delivery.spread')}</dt>
        <dd>{record.spread}</dd>
      </dl>
    </li>
  );
}
