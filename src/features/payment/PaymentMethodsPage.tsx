/**
 * Withdrawal methods (pages/withdraw/withdraw2): the user's USDT receiving addresses and bank
 * cards, each with the time its cooldown ends, a delete with a confirmation, and the two add
 * forms. The list is kept on the device by the worker, so it shows offline; adding and deleting
 * need a connection and are never queued.
 */
import { Button } from 'antd-mobile';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentMethod } from '../../../contract/api/payment.js';
import type { Chain } from '../../../contract/constants.js';
import type { Outcome } from '../../../sync/ports.js';
import { useOutcome, type FieldErrorSink } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { useSession } from '../../../client-db/use-session.js';
import { DateTime } from '../../ui/DateTime.js';
import { Field } from '../../ui/Field.js';
import { toast } from '../../ui/toast.js';
import { useForm } from '../../ui/use-form.js';
import { CHAIN_LIST, NETWORK_NAMES } from '../recharge/recharge-view.js';
import { cardDigits, checkAddress, checkBank, inCooldown, methodName, type Problem } from './payment-view.js';
import { usePaymentMethods } from './use-payment-methods.js';
import { Choice } from '../../ui/Choice.js';
import './payment.css';
import { Select } from '../../ui/Select.js';
import { CardForm } from '../../ui/Card.js';

const KINDS = ['chain', 'bank'] as const;
type Kind = (typeof KINDS)[number];

export default function PaymentMethodsPage() {
  const session = useSession();
  if (session === undefined || session === null) return null;
  return <PaymentMethods key={session.userId} userId={session.userId} />;
}

function PaymentMethods({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { methods, state } = usePaymentMethods(userId);
  const [kind, setKind] = useState<Kind>('chain');
  return (
    <div className="page-padding stack">
      <section className="stack" aria-labelledby="payments-list" aria-busy={state === 'loading'}>
        <h2 id="payments-list" className="card__title">
          {t('payments.list_title')}
        </h2>
        {state === 'saved' && <p className="muted">{t('payments.offline_list')}</p>}
        {methods !== undefined && methods.length === 0 && (
          <p className="card muted">{state === 'loading' ? t('common.loading') : t('payments.empty')}</p>
        )}
        {methods !== undefined && methods.length > 0 && (
          <ul className="card row-list payments-list">
            {methods.map((method) => (
              <MethodItem key={method.id} method={method} />
            ))}
          </ul>
        )}
      </section>
      <Choice
        className="card choices"
        legend={t('payments.add_title')}
        name="payments-kind"
        options={KINDS.map((value) => ({ value, label: t(`payments.kind_${value}`) }))}
        value={kind}
        onChange={setKind}
      />
      {kind === 'chain' ? <ChainForm /> : <BankForm />}
    </div>
  );
}

/** How the page tells a command's outcome: saved, a refusal (toast and field), or "needs a connection". */
function useCommandOutcome() {
  const { t } = useTranslation();
  const handle = useOutcome();
  return <T,>(outcome: Outcome<T>, success: string, sink?: FieldErrorSink): boolean => {
    if (outcome.kind === 'transport' && outcome.status === null) {
      toast(t('payments.needs_connection'));
      return false;
    }
    if (!handle(outcome, sink)) return false;
    toast(success);
    return true;
  };
}

function MethodItem({ method }: { method: PaymentMethod }) {
  const { t } = useTranslation();
  const tell = useCommandOutcome();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const name = methodName(method);
  const confirmId = useId();

  const remove = async () => {
    setBusy(true);
    const outcome = await send('payment-delete', { id: method.id });
    setBusy(false);
    if (tell(outcome, t('payments.deleted'))) setConfirming(false);
  };

  return (
    <li className="payments-item">
      <div className="payments-item__body">
        {method.kind === 'chain' ? (
          <>
            <p className="payments-item__title">
              {method.currency} · {method.network}
            </p>
            <p className="payments-item__address">{method.address}</p>
          </>
        ) : (
          <>
            <p className="payments-item__title">{method.bankName}</p>
            <p className="payments-item__card">{method.cardNumber}</p>
            <p className="muted">
              {method.holderName} · {method.branch}
            </p>
          </>
        )}
        {inCooldown(method, Date.now()) && (
          <p className="payments-item__cooldown">
            {t('payments.usable_from')} <DateTime at={method.usableAt} style="short" />
          </p>
        )}
      </div>
      {confirming ? (
        <div className="payments-item__confirm" role="group" aria-labelledby={confirmId}>
          <p id={confirmId}>{t('payments.delete_confirm', { name })}</p>
          <div className="payments-item__actions">
            <Button size="small" color="danger" loading={busy} onClick={() => void remove()}>
              {t('payments.delete')}
            </Button>
            <Button size="small" disabled={busy} onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
          </div>
        </div>
      ) : (
        <Button
          size="small"
          className="payments-item__delete"
          onClick={() => setConfirming(true)}
          aria-label={t('payments.delete_named', { name })}
        >
          {t('payments.delete')}
        </Button>
      )}
    </li>
  );
}

function useProblemText() {
  const { t } = useTranslation();
  return (problem: Problem, field: string) =>
    problem === 'required' ? t('server.field_required', { field }) : t(`payments.problem_${problem}`);
}

function ChainForm() {
  const { t } = useTranslation();
  const tell = useCommandOutcome();
  const problemText = useProblemText();
  const currencyId = useId();
  const [network, setNetwork] = useState<Chain>(CHAIN_LIST[0] ?? 'BEP20');
  const form = useForm({ address: '' });

  const onSubmit = form.submit(
    ({ address }) => {
      const problem = checkAddress(network, address);
      return problem === null ? {} : { address: problemText(problem, t('field.address')) };
    },
    async ({ address }) => {
      const outcome = await send('payment-add-chain', { currency: 'USDT', network, address: address.trim() });
      if (tell(outcome, t('server.saved'), form.sink)) form.set('address')('');
    },
  );

  return (
    <CardForm id="payments-chain" title={t('payments.chain_title')} onSubmit={onSubmit}>
      <div className="field">
        <span className="field__label" id={currencyId}>
          {t('field.currency')}
        </span>
        <p className="field__static" aria-labelledby={currencyId}>
          USDT
        </p>
      </div>
      <Select
        className="field payments-select"
        inputClassName="field__input"
        label={t('field.network')}
        value={network}
        options={CHAIN_LIST.map((chain) => ({ value: chain, label: `${chain} (${NETWORK_NAMES[chain]})` }))}
        onChange={setNetwork}
      />
      <Field
        label={t('field.address')}
        {...form.bind('address')}
        placeholder={network === 'BEP20' ? '0x…' : 'T…'}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        required
      />
      <Button type="submit" color="primary" block size="large" loading={form.busy}>
        {t('payments.save')}
      </Button>
    </CardForm>
  );
}

const BANK_FIELDS = ['bankName', 'cardNumber', 'holderName', 'branch'] as const;

function BankForm() {
  const { t } = useTranslation();
  const tell = useCommandOutcome();
  const problemText = useProblemText();
  const form = useForm({ bankName: '', cardNumber: '', holderName: '', branch: '' });

  const onSubmit = form.submit(
    (values) => {
      const problems = checkBank(values);
      const errors: Partial<Record<(typeof BANK_FIELDS)[number], string>> = {};
      for (const field of BANK_FIELDS) {
        const problem = problems[field];
        if (problem !== undefined) errors[field] = problemText(problem, t(`field.${field}`));
      }
      return errors;
    },
    async (values) => {
      const outcome = await send('payment-add-bank', {
        bankName: values.bankName.trim(),
        cardNumber: cardDigits(values.cardNumber),
        holderName: values.holderName.trim(),
        branch: values.branch.trim(),
      });
      if (tell(outcome, t('server.saved'), form.sink)) for (const field of BANK_FIELDS) form.set(field)('');
    },
  );

  return (
    <CardForm id="payments-bank" title={t('payments.bank_title')} onSubmit={onSubmit}>
      <Field
        label={t('field.bankName')}
        {...form.bind('bankName')}
        autoComplete="off"
        maxLength={64}
        required
      />
      <Field
        label={t('field.cardNumber')}
        {...form.bind('cardNumber')}
        inputMode="numeric"
        autoComplete="cc-number"
        maxLength={40}
        required
      />
      <Field
        label={t('field.holderName')}
        {...form.bind('holderName')}
        autoComplete="cc-name"
        maxLength={64}
        required
      />
      <Field label={t('field.branch')} {...form.bind('branch')} autoComplete="off" maxLength={128} required />
      <Button type="submit" color="primary" block size="large" loading={form.busy}>
        {t('payments.save')}
      </Button>
    </CardForm>
  );
}
