/**
 * Recharge (pages/withdraw/withdraw1): the active account's USDT deposit address on the chosen
 * chain (BEP20 or TRC20) as text and as a QR code, the chain's USDT contract, the deposit rules
 * with the chain's figures, and the account's synced deposits. The address is asked of the
 * server each time and kept on the device by the worker, so the page opens offline too.
 */
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepositRecord } from '../../../contract/api/recharge.js';
import { DEPOSIT_CONFIRMATIONS, type Chain } from '../../../contract/constants.js';
import type { DepositAddressRecord } from '../../../client-db/schema.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { perAccountPage } from '../account/PerAccount.js';
import { shownAmount } from '../../ui/amounts.js';
import { shortHash } from '../../ui/chain-text.js';
import { useCopy } from '../../ui/use-copy.js';
import { DateTime, formatTime } from '../../ui/DateTime.js';
import { useQrCode } from '../../ui/use-qr-code.js';
import { useRecordsList } from '../account/account-data.js';
import {
  CHAIN_LIST,
  NETWORK_NAMES,
  statusLabel,
  statusTone,
  showsConfirmations,
  type ChainDepths,
} from './recharge-view.js';
import {
  useChainDepths,
  useDepositAddress,
  useDepositPulls,
  useDeposits,
  type AddressState,
} from './use-deposit-address.js';
import { Choice } from '../../ui/Choice.js';
import './recharge.css';
import { RecordsSection, type RecordsList } from '../../ui/RecordsSection.js';
import { CardSection } from '../../ui/Card.js';

const DEPOSITS: RecordsList = {
  title: 'recharge.records_title',
  empty: 'recharge.records_empty',
  more: 'recharge.more',
  collections: ['deposits'],
};

export default perAccountPage(Recharge);

function Recharge({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const [chain, setChain] = useState<Chain>(CHAIN_LIST[0] ?? 'BEP20');
  const view = useDepositAddress(active, chain);
  return (
    <div className="page-padding stack">
      <Choice
        className="card choices"
        legend={t('recharge.network')}
        name="recharge-chain"
        options={CHAIN_LIST.map((value) => ({
          value,
          label: value,
          note: <span className="chain-picker__network">{NETWORK_NAMES[value]}</span>,
        }))}
        value={chain}
        onChange={setChain}
      />
      <AddressCard chain={chain} address={view.address} state={view.state} onRetry={view.retry} />
      <RulesCard chain={chain} address={view.address} />
      <Deposits active={active} />
    </div>
  );
}

function AddressCard({
  chain,
  address,
  state,
  onRetry,
}: {
  chain: Chain;
  address: DepositAddressRecord | null;
  state: AddressState;
  onRetry: () => void;
}) {
  const { t, i18n } = useTranslation();
  const copy = useCopy();
  const qr = useQrCode(address?.address ?? null);
  return (
    <section
      className="card recharge-address"
      aria-labelledby="recharge-address"
      aria-busy={state === 'loading'}
    >
      <h2 id="recharge-address" className="card__title">
        {t('recharge.address_title', { chain })}
      </h2>
      {(qr !== null || address !== null || state === 'loading') && (
        <div className="recharge-address__qr">
          {qr !== null ? (
            <img src={qr} alt={t('recharge.qr_alt', { chain })} width="192" height="192" />
          ) : (
            <div className="recharge-address__qr-placeholder" aria-hidden="true" />
          )}
        </div>
      )}
      {address !== null ? (
        <p className="recharge-address__value">{address.address}</p>
      ) : (
        <p className="muted recharge-address__status">
          {state === 'loading' ? t('recharge.address_loading') : t('recharge.address_unavailable')}
        </p>
      )}
      {address !== null && state === 'saved' && (
        <p className="muted recharge-address__status">
          {t('recharge.address_saved', { time: formatTime(address.fetchedAt, i18n.language, 'short') })}
        </p>
      )}
      <div className="recharge-address__actions">
        {/* Enabled without an address too: the spec's "content to copy cannot be empty" tells why. */}
        <Button color="primary" onClick={() => copy(address?.address ?? '')}>
          {t('recharge.copy_address')}
        </Button>
        {address === null && (state === 'unavailable' || state === 'refused') && (
          <Button onClick={onRetry}>{t('recharge.retry')}</Button>
        )}
      </div>
      <h3 className="recharge-address__subtitle">{t('recharge.contract_title', { chain })}</h3>
      <p className="recharge-address__contract">{address?.contract ?? '…'}</p>
      <Button size="small" onClick={() => copy(address?.contract ?? '')}>
        {t('recharge.copy_contract')}
      </Button>
    </section>
  );
}

function RulesCard({ chain, address }: { chain: Chain; address: DepositAddressRecord | null }) {
  const { t, i18n } = useTranslation();
  const chains = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(CHAIN_LIST);
  return (
    <CardSection id="recharge-rules" title={t('recharge.rules_title')}>
      <ul className="rules-list">
        <li>{t('recharge.rule_token', { chain, chains })}</li>
        {address === null ? (
          <li>{t('recharge.rules_pending')}</li>
        ) : (
          <>
            <li>{t('recharge.rule_minimum', { minimum: shownAmount(address.minimum) })}</li>
            <li>{t('recharge.rule_confirmations', { count: address.confirmations })}</li>
            <li>{t('recharge.rule_finality', { count: address.finality })}</li>
          </>
        )}
      </ul>
    </CardSection>
  );
}

function Deposits({ active }: { active: ActiveAccount }) {
  const list = useRecordsList(active, DEPOSITS);
  const depths = useChainDepths(active);
  const deposits = useDeposits(active, list.paging.shown + 1);
  useDepositPulls();
  return (
    <RecordsSection {...list} records={deposits}>
      {(deposit) => <DepositLine deposit={deposit} depths={depths?.[deposit.chain]} />}
    </RecordsSection>
  );
}

function DepositLine({ deposit, depths }: { deposit: DepositRecord; depths: ChainDepths | undefined }) {
  const { t } = useTranslation();
  const label = statusLabel(deposit, depths, DEPOSIT_CONFIRMATIONS);
  return (
    <li className="deposit">
      <p className="deposit__amount">
        {shownAmount(deposit.amount)} <span className="deposit__unit">USDT</span>
      </p>
      <p className={`deposit__status tone--${statusTone(deposit.status)}`}>{t(label.key, label.values)}</p>
      <p className="muted deposit__detail deposit__chain">
        {deposit.chain}
        {showsConfirmations(deposit.status) &&
          ` · ${t('recharge.confirmations', { count: deposit.confirmations })}`}
      </p>
      <p className="muted deposit__detail deposit__tx">
        {t('recharge.transaction')} <code title={deposit.txHash}>{shortHash(deposit.txHash)}</code>
      </p>
      <DateTime className="muted deposit__time" at={deposit.detectedAt} style="short" />
    </li>
  );
}
