/**
 * Accounts (pages/setting/setting4, the spec's "switch main or sub-account, create
 * sub-account"): the user's accounts, main first, the active one marked; switching (locally at
 * once, and the server's default through the outbox); a new sub-account; and a transfer between
 * the user's own accounts. Every check runs before anything is sent, and each command waits in
 * the outbox while offline.
 */
import '../../ui/antd-render.js';
import { Button } from 'antd-mobile';
import { useLiveQuery } from 'dexie-react-hooks';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CardForm, StackSection } from '../../ui/Card.js';
import type { AccountRecord, Asset } from '../../../contract/api/account.js';
import { SUB_ACCOUNT_NAME_MAX_LENGTH, SUB_ACCOUNTS_MAX } from '../../../contract/constants.js';
import { formatMoney } from '../../../contract/money.js';
import { send } from '../../app/worker-client.js';
import {
  useActiveAccount,
  useSyncedAt,
  useUserDb,
  type ActiveAccount,
} from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { Field } from '../../ui/Field.js';
import { toast } from '../../ui/toast.js';
import { useEnqueue } from '../outbox/use-enqueue.js';
import {
  availableAfterPending,
  checkSubAccount,
  checkTransferAmount,
  orderAccounts,
  problemText,
  type PendingTransfer,
} from './account-forms.js';
import { useAccountName, useAccounts, useBalance } from './account-data.js';
import { Select } from '../../ui/Select.js';

const COLLECTIONS = ['accounts'] as const;
const ASSET_OPTIONS: readonly Asset[] = ['USDT', 'RAB'];

export default function AccountsPage() {
  const { t } = useTranslation();
  const db = useUserDb();
  const accounts = useAccounts();
  const active = useActiveAccount();
  const syncedAt = useSyncedAt(db, COLLECTIONS);
  // Sub-accounts asked for and transfers made, not yet confirmed by the server, from the outbox.
  const pending = useLiveQuery(async () => {
    const rows = db === null ? [] : await db.outbox.where('state').anyOf('queued', 'sending').sortBy('seq');
    return {
      names: rows.flatMap((row) => (row.kind === 'account-create' ? [row.params.name] : [])),
      transfers: rows.flatMap((row) => (row.kind === 'account-transfer' ? [row.params] : [])),
    };
  }, [db]);
  if (accounts === undefined || active === undefined || pending === undefined) return null;
  const pendingNames = pending.names;
  const ordered = orderAccounts(accounts);
  const subAccounts = accounts.filter((account) => account.kind === 'sub').length + pendingNames.length;
  return (
    <div className="page-padding stack">
      <AsOf syncedAt={syncedAt} />
      <StackSection id="accounts-list" title={t('accounts.list')}>
        {ordered.length === 0 && pendingNames.length === 0 ? (
          <p className="card muted">{t('my.no_account')}</p>
        ) : (
          <ul className="card row-list">
            {ordered.map((account) => (
              <AccountLine key={account.id} account={account} active={account.id === active?.accountId} />
            ))}
            {pendingNames.map((name, index) => (
              <li key={`pending-${index}`} className="row account-line">
                <div className="account-line__text">
                  <h3 className="row__title">{name}</h3>
                  <p className="muted">{t('accounts.sub')}</p>
                </div>
                <span className="badge badge--muted">{t('accounts.pending_create')}</span>
              </li>
            ))}
          </ul>
        )}
      </StackSection>
      <CreateSubAccount subAccounts={subAccounts} />
      {active !== null && <Transfer active={active} accounts={ordered} pending={pending.transfers} />}
    </div>
  );
}

function AccountLine({ account, active }: { account: AccountRecord; active: boolean }) {
  const { t } = useTranslation();
  const nameOf = useAccountName();
  const { busy, enqueue } = useEnqueue();
  const switchTo = async () => {
    // Locally at once (the screens follow), then the server's default through the outbox.
    await send('account-select', { accountId: account.id });
    const refused = await enqueue({ kind: 'account-switch', params: { accountId: account.id } });
    if (!refused) toast(t('accounts.switched', { name: nameOf(account) }));
  };
  return (
    <li className="row account-line">
      <div className="account-line__text">
        <h3 className="row__title">{nameOf(account)}</h3>
        {/* The main account is named by its role already. */}
        {account.kind === 'sub' && <p className="muted">{t('accounts.sub')}</p>}
      </div>
      {active ? (
        <span className="badge badge--active">{t('accounts.active')}</span>
      ) : (
        <Button
          size="small"
          disabled={busy}
          onClick={() => void switchTo()}
          aria-label={t('accounts.switch_named', { name: nameOf(account) })}
        >
          {t('accounts.switch')}
        </Button>
      )}
    </li>
  );
}

function CreateSubAccount({ subAccounts }: { subAccounts: number }) {
  const { t } = useTranslation();
  const { busy, enqueue } = useEnqueue();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = checkSubAccount(name, subAccounts);
    if (problem !== null) return setError(problemText(t, problem));
    setError(undefined);
    const refused = await enqueue({ kind: 'account-create', params: { name: name.trim() } });
    if (refused?.reason === 'invalid_input') setError(t('server.field_invalid', { field: t('field.name') }));
    if (refused) return;
    setName('');
    toast(t('accounts.create_queued'));
  };

  return (
    <CardForm
      id="accounts-create"
      title={t('accounts.create_title')}
      onSubmit={(event) => void submit(event)}
    >
      <p className="muted form__hint">
        {t('accounts.create_hint', { max: SUB_ACCOUNTS_MAX, length: SUB_ACCOUNT_NAME_MAX_LENGTH })}
      </p>
      <Field
        label={t('field.name')}
        value={name}
        onChange={setName}
        error={error}
        maxLength={SUB_ACCOUNT_NAME_MAX_LENGTH}
        required
        autoComplete="off"
      />
      <Button type="submit" color="primary" block size="large" loading={busy}>
        {t('accounts.create')}
      </Button>
    </CardForm>
  );
}

function Transfer({
  active,
  accounts,
  pending,
}: {
  active: ActiveAccount;
  accounts: AccountRecord[];
  pending: readonly PendingTransfer[];
}) {
  const { t } = useTranslation();
  const { busy, enqueue } = useEnqueue();
  const nameOf = useAccountName();
  const fromLabelId = useId();
  const balance = useBalance(active);
  const from = accounts.find((account) => account.id === active.accountId);
  const others = accounts.filter((account) => account.id !== active.accountId);
  const [to, setTo] = useState('');
  const [asset, setAsset] = useState<Asset>('USDT');
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const target = others.find((account) => account.id === to) ?? others[0];
  const available = availableAfterPending(
    balance ? (asset === 'USDT' ? balance.cash : balance.rab) : null,
    active.accountId,
    asset,
    pending,
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (target === undefined) return;
    const problem = checkTransferAmount(amount, available, asset);
    if (problem !== null) return setError(problemText(t, problem));
    setError(undefined);
    const refused = await enqueue({
      kind: 'account-transfer',
      params: { fromAccountId: active.accountId, toAccountId: target.id, asset, amount: amount.trim() },
    });
    if (refused?.reason === 'invalid_input' && refused.field === 'amount')
      setError(t('server.amount_invalid'));
    if (refused) return;
    setAmount('');
    toast(t('accounts.transfer_queued'));
  };

  return (
    <CardForm
      id="accounts-transfer"
      title={t('accounts.transfer_title')}
      onSubmit={(event) => void submit(event)}
    >
      {target === undefined ? (
        <p className="muted">{t('accounts.transfer_none')}</p>
      ) : (
        <>
          <div className="field">
            <span className="field__label" id={fromLabelId}>
              {t('field.fromAccountId')}
            </span>
            <p className="field__static" aria-labelledby={fromLabelId}>
              {from === undefined ? '' : nameOf(from)}
            </p>
          </div>
          <Select
            label={t('field.toAccountId')}
            value={target.id}
            options={others.map((account) => ({ value: account.id, label: nameOf(account) }))}
            onChange={setTo}
          />
          <Select
            label={t('field.asset')}
            value={asset}
            options={ASSET_OPTIONS.map((option) => ({ value: option, label: option }))}
            onChange={setAsset}
          />
          <p className="muted field__hint">
            {available === null
              ? t('accounts.available_unknown')
              : t('accounts.available', { amount: formatMoney(available), asset })}
          </p>
          <Field
            label={t('field.amount')}
            value={amount}
            onChange={setAmount}
            error={error}
            inputMode="decimal"
            autoComplete="off"
            required
          />
          <Button type="submit" color="primary" block size="large" loading={busy}>
            {t('accounts.transfer')}
          </Button>
        </>
      )}
    </CardForm>
  );
}
