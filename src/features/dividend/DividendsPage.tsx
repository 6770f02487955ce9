/**
 * AI dividends (pages/blance_record/blance_record2): what the active account can claim
 * now and has claimed, the rules, and its release records (to be claimed, claimed, expired) with a
 * claim button each and one for all. Records come from the synced `dividend_releases` collection,
 * so the page reads offline; a claim is the outbox command `dividend-claim`, which waits up to an
 * hour for the network, and the records say "claiming" while it is on its way.
 */
import { Button } from 'antd-mobile';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  AiInfoData,
  DividendReleaseRecord,
  DividendReleaseStatus,
} from '../../../contract/api/dividend.js';
import { MIN_VALID_HOSTING_USD } from '../../../contract/constants.js';
import type { OutboxRecord } from '../../../worker/commands.js';
import { send } from '../../app/worker-client.js';
import { accountDatabase, userDatabase, type ActiveAccount } from '../../../client-db/use-sync-db.js';
import { perAccountPage } from '../account/PerAccount.js';
import { AsOf } from '../../ui/AsOf.js';
import { DateTime, formatTime } from '../../ui/DateTime.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { toast } from '../../ui/toast.js';
import { useRecordsList } from '../account/account-data.js';
import { useRefusalMessage } from '../outbox/messages.js';
import {
  canClaim,
  claimDaysOf,
  dayLabel,
  pendingClaims,
  STATUS_LIST,
  statusAt,
  statusKey,
  sumsOf,
  type PendingClaims,
} from './dividends-view.js';
import './dividend.css';
import { RecordsSection, useRecordsFilter, type Paging, type RecordsList } from '../../ui/RecordsSection.js';
import { AccentCard, CardSection } from '../../ui/Card.js';

const RELEASES: RecordsList = {
  title: 'dividends.records_title',
  empty: 'dividends.empty',
  more: 'dividends.more',
  collections: ['dividend_releases'],
};
type ClaimCommand = Extract<OutboxRecord, { kind: 'dividend-claim' }>;

export default perAccountPage(Dividends);

/** The time now, again every 30 s, so a record passing its expiry shows it without new data. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Dividends({ active }: { active: ActiveAccount }) {
  const { t, i18n } = useTranslation();
  const { userId, accountId } = active;
  const now = useNow();
  const online = useLink() === 'online';
  // The list's as-of time shows at the top, with the figures its records make.
  const { paging, syncedAt } = useRecordsList(active, RELEASES);
  const records = useLiveQuery(
    () => accountDatabase(userId, accountId).dividend_releases.orderBy('createdAt').reverse().toArray(),
    [userId, accountId],
  );
  const claims = useLiveQuery(async () => {
    const rows = await userDatabase(userId).outbox.where('state').anyOf('queued', 'sending').toArray();
    return rows.filter((row): row is ClaimCommand => row.kind === 'dividend-claim');
  }, [userId]);
  const pending = pendingClaims(claims ?? [], accountId);
  const info = useInfo(accountId, online);
  const claim = useClaim(active);
  useEffect(() => {
    void send('sync-pull');
  }, []);

  const sums = sumsOf(records ?? [], now);
  const claimDays = info?.rules.claimDays ?? claimDaysOf(records ?? []);
  const claimingAll = pending.all;
  return (
    <div className="page-padding stack dividends-page">
      <AccentCard id="dividends-claimable" title={t('dividends.claimable')}>
        <p className="card__figure dividends-figure">
          {records === undefined ? '…' : sums.claimable} <span className="card__unit">USDT</span>
        </p>
        <p className="dividends-line">
          {sums.nextExpiresAt === null
            ? t('dividends.none_claimable')
            : t('dividends.claimable_summary', {
                number: sums.claimableCount,
                time: formatTime(sums.nextExpiresAt, i18n.language, 'short'),
              })}
        </p>
        <p className="dividends-line">{t('dividends.claimed_total', { amount: sums.claimed })}</p>
        {(sums.claimableCount > 0 || claimingAll) && (
          <div className="dividends-all">
            <Button
              size="middle"
              disabled={claimingAll || claim.busy}
              onClick={() => void claim.run(null, sums.claimable)}
            >
              {claimingAll ? t('dividends.claiming') : t('dividends.claim_all', { amount: sums.claimable })}
            </Button>
          </div>
        )}
        <div className="dividends-as-of">
          <AsOf syncedAt={syncedAt} />
        </div>
      </AccentCard>
      {!online && <p className="card dividends-notice">{t('dividends.offline')}</p>}
      <CardSection id="dividends-rules" title={t('dividends.rules_title')}>
        <ul className="rules-list">
          <li>
            {t('dividends.rule_share', {
              threshold: info?.rules.validHostingThreshold ?? MIN_VALID_HOSTING_USD,
            })}
          </li>
          <li>
            {claimDays === null
              ? t('dividends.rule_expiry_unknown')
              : t('dividends.rule_expiry', { days: claimDays })}
          </li>
          <li>{t('dividends.rule_claim')}</li>
        </ul>
      </CardSection>
      <Records
        records={records}
        paging={paging}
        now={now}
        pending={pending}
        busy={claim.busy}
        onClaim={claim.run}
      />
    </div>
  );
}

/** /api/v1/user/aiInfo for its rules while online; null offline or before it answers. */
function useInfo(accountId: string, online: boolean): AiInfoData | null {
  const [info, setInfo] = useState<{ accountId: string; data: AiInfoData } | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void send('dividend-info', { accountId }).then((outcome) => {
      if (live && outcome.kind === 'ok') setInfo({ accountId, data: outcome.data });
    });
    return () => {
      live = false;
    };
  }, [accountId, online]);
  return info?.accountId === accountId ? info.data : null;
}

/**
 * Queues a claim (one record, or all when `id` is null) and follows it: queued or sent, then
 * claimed or refused, each told as a toast.
 */
function useClaim(active: ActiveAccount) {
  const { t } = useTranslation();
  const refusal = useRefusalMessage();
  const online = useLink() === 'online';
  const [busy, setBusy] = useState(false);
  const [followed, setFollowed] = useState<string | null>(null);
  const command = useLiveQuery(
    async () =>
      followed === null ? null : ((await userDatabase(active.userId).outbox.get(followed)) ?? null),
    [active.userId, followed],
  );
  useEffect(() => {
    if (!command || command.kind !== 'dividend-claim') return;
    if (command.state === 'confirmed') {
      toast(t('dividends.claimed_toast', { amount: command.params.amount }));
      setFollowed(null);
    } else if (command.state === 'rejected' || command.state === 'expired') {
      toast(
        command.answer
          ? t('dividends.refused', { message: command.answer.message })
          : t('dividends.expired_command'),
      );
      // Told here: dismissed from the outbox, as the money forms do (use-command-flow.ts).
      void send('outbox-dismiss', { id: command.id });
      setFollowed(null);
    }
  }, [command, t]);
  const run = async (id: string | null, amount: string) => {
    setBusy(true);
    try {
      const result = await send('outbox-enqueue', {
        kind: 'dividend-claim',
        params: { accountId: active.accountId, ...(id === null ? {} : { id }), amount },
      });
      if (result.kind === 'refused') {
        toast(refusal(result));
        return;
      }
      setFollowed(result.id);
      toast(online ? t('dividends.claim_sending') : t('dividends.claim_queued'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

function Records({
  records,
  paging,
  now,
  pending,
  busy,
  onClaim,
}: {
  records: DividendReleaseRecord[] | undefined;
  paging: Paging;
  now: number;
  pending: PendingClaims;
  busy: boolean;
  onClaim: (id: string | null, amount: string) => Promise<void>;
}) {
  const filter = useRecordsFilter<DividendReleaseStatus>(STATUS_LIST, statusKey, 'dividends.filter');
  const matching = records?.filter(
    (record) => filter.value === 'all' || statusAt(record, now) === filter.value,
  );
  return (
    <RecordsSection words={RELEASES} filter={filter} records={matching} paging={paging}>
      {(record) => (
        <Release
          record={record}
          now={now}
          claiming={pending.all || pending.ids.has(record.id)}
          claimable={canClaim(record, pending, now) && !busy}
          onClaim={onClaim}
        />
      )}
    </RecordsSection>
  );
}

function Release({
  record,
  now,
  claiming,
  claimable,
  onClaim,
}: {
  record: DividendReleaseRecord;
  now: number;
  claiming: boolean;
  claimable: boolean;
  onClaim: (id: string | null, amount: string) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const status = statusAt(record, now);
  const day = dayLabel(record.day, i18n.language);
  return (
    <li className="dividend">
      <p className="dividend__day">{t('dividends.record_day', { day })}</p>
      <p className={`dividend__amount dividend__amount--${status}`}>
        +{record.amount} <span className="record__unit">USDT</span>
      </p>
      <p className="muted dividend__basis">{t('dividends.record_basis', { balance: record.balance })}</p>
      <span className={`badge dividend__status dividend__status--${status}`}>{t(statusKey(status))}</span>
      <p className="muted dividend__time">
        {status === 'claimed' && record.claimedAt !== null ? (
          <>
            {t('dividends.claimed_at')} <DateTime at={record.claimedAt} style="short" />
          </>
        ) : status === 'expired' ? (
          <>
            {t('dividends.expired_at')} <DateTime at={record.expiresAt} style="short" />
          </>
        ) : (
          <>
            {t('dividends.claim_by')} <DateTime at={record.expiresAt} style="short" />
          </>
        )}
      </p>
      {status === 'to_be_claimed' && (
        <div className="dividend__action">
          <Button
            size="small"
            color="primary"
            disabled={!claimable}
            aria-label={t(claiming ? 'dividends.claiming_named' : 'dividends.claim_named', {
              amount: record.amount,
              day,
            })}
            onClick={() => void onClaim(record.id, record.amount)}
          >
            {claiming ? t('dividends.claiming') : t('dividends.claim')}
          </Button>
        </div>
      )}
    </li>
  );
}
