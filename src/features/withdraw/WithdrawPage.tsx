/**
 * The withdrawal (pages/withdraw/withdraw): from the active account to one of the user's methods
 * (a USDT address or a bank card), with what it costs and allows now from /api/v1/withdraw/index
 * (fee, minimum, daily limit, the window, the security lock), the trade password and an
 * authenticator code. The withdrawal is an outbox command sent only while online and expired
 * after a minute; the page follows it to its answer. Offline the page says a withdrawal needs a
 * connection and the submit is disabled.
 */
import { OneTimeCodeField, SubmitButton, TradePasswordField } from '../../ui/form-fields.js';
import { RetryNotice } from '../../ui/RetryNotice.js';
import { Figure } from '../../ui/Figure.js';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { WithdrawIndexData } from '../../../contract/api/withdraw.js';
import type { PaymentMethodRecord } from '../../../client-db/schema.js';
import { BodyCode } from '../../../contract/codes.js';
import { checkCode, checkPassword } from '../../../contract/validation.js';
import { useGo } from '../../app/navigation.js';
import { ROUTES } from '../../app/paths.js';
import { serverNow } from '../../app/server-clock.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { perAccountPage } from '../account/PerAccount.js';
import { commandOutcome, type CommandOutcome } from '../outbox/command-outcome.js';
import { CommandLines } from '../outbox/CommandLines.js';
import { useCommandFlow, useFlowTexts } from '../outbox/use-command-flow.js';
import { AsOf } from '../../ui/AsOf.js';
import { DateTime, formatTime } from '../../ui/DateTime.js';
import { Field } from '../../ui/Field.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { toast } from '../../ui/toast.js';
import { useAccountName, useAccounts, useAccountSyncedAt, useBalance } from '../account/account-data.js';
import { useChecks } from '../../ui/field-messages.js';
import { useForm } from '../../ui/use-form.js';
import { methodName } from '../payment/payment-view.js';
import { usePaymentMethods } from '../payment/use-payment-methods.js';
import { useAmountFormText } from '../../ui/amount-problem.js';
import { shownAmount } from '../../ui/amounts.js';
import {
  activeLock,
  breakdownOf,
  checkWithdrawAmount,
  maximumText,
  methodUsability,
  windowView,
  type AmountProblem,
  type TwoZoneTime,
  type Usability,
} from './withdraw-view.js';
import { useWithdrawTerms, type WithdrawCommand } from './use-withdraw.js';
import './withdraw.css';
import { AccentCard, CardForm, CardSection } from '../../ui/Card.js';

const BALANCE_COLLECTIONS = ['balances'] as const;

export default perAccountPage(Withdraw);

function Withdraw({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const online = useLink() === 'online';
  const { methods, state: methodsState } = usePaymentMethods(active.userId);
  const [chosenId, setChosenId] = useState<string | null>(null);
  // Until the user chooses, the first method usable now (as stored on the device, by the server's clock).
  const firstUsable = methods?.find((method) => Date.parse(method.usableAt) <= serverNow()) ?? null;
  const methodId = chosenId ?? firstUsable?.id ?? null;
  const termsRead = useWithdrawTerms(active.accountId, methodId, online);
  const { data: terms, reload } = termsRead;
  const methodsKnown = methods !== undefined && methodsState !== 'loading';

  return (
    <div className="page-padding stack">
      <Available active={active} terms={terms} />
      {!online && (
        <p className="card notice" role="status">
          {t('withdraw.offline')}
        </p>
      )}
      <RetryNotice
        read={termsRead}
        className="card notice"
        message={t('withdraw.terms_unavailable')}
        retry={t('withdraw.retry')}
      />
      <Prerequisites terms={terms} noMethod={methodsKnown && methods.length === 0} />
      {terms !== null && <Lock lockedUntil={terms.lockedUntil} />}
      {terms !== null && <WindowCard terms={terms} />}
      <WithdrawForm
        active={active}
        terms={terms}
        methods={methods ?? []}
        methodId={methodId}
        onChooseMethod={setChosenId}
        online={online}
        onSettled={reload}
      />
      {terms !== null && <TermsCard terms={terms} />}
      <Link className="list-link card" to={ROUTES.withdrawRecords}>
        {t('withdraw.records_title')}
      </Link>
    </div>
  );
}

/** The account and what it can withdraw: the server's figure, or the synced cash while there is none. */
function Available({ active, terms }: { active: ActiveAccount; terms: WithdrawIndexData | null }) {
  const { t } = useTranslation();
  const accounts = useAccounts();
  const nameOf = useAccountName();
  const balance = useBalance(active);
  const syncedAt = useAccountSyncedAt(active, BALANCE_COLLECTIONS);
  const account = accounts?.find((candidate) => candidate.id === active.accountId);
  const amount = terms !== null ? terms.available : (balance?.cash ?? null);
  return (
    <>
      <AccentCard id="withdraw-available" title={t('withdraw.available')}>
        <p className="card__figure">
          {amount === null ? '…' : shownAmount(amount)} <span className="card__unit">USDT</span>
        </p>
        {account !== undefined && (
          <p className="card__note">{t('withdraw.from_account', { name: nameOf(account) })}</p>
        )}
      </AccentCard>
      {/* The synced figure says how fresh it is; the server's is as of now. */}
      {terms === null && balance != null && <AsOf syncedAt={syncedAt} />}
    </>
  );
}

/** What the user must set up first, each with the page that does it. */
function Prerequisites({ terms, noMethod }: { terms: WithdrawIndexData | null; noMethod: boolean }) {
  const { t } = useTranslation();
  const missing: { text: string; link: string; to: string }[] = [];
  if (terms !== null && !terms.tradePasswordSet)
    missing.push({
      text: t('withdraw.need_trade_password'),
      link: t('withdraw.set_trade_password'),
      to: ROUTES.updatePassword2,
    });
  if (terms !== null && !terms.authenticatorBound)
    missing.push({
      text: t('withdraw.need_authenticator'),
      link: t('withdraw.bind_authenticator'),
      to: ROUTES.updatePassword3,
    });
  if (noMethod)
    missing.push({ text: t('withdraw.need_method'), link: t('withdraw.add_method'), to: ROUTES.withdraw2 });
  if (missing.length === 0) return null;
  return (
    <CardSection id="withdraw-before" className="card notice" title={t('withdraw.before_title')}>
      <ul className="withdraw-todo">
        {missing.map((item) => (
          <li key={item.to}>
            {item.text} <Link to={item.to}>{item.link}</Link>
          </li>
        ))}
      </ul>
    </CardSection>
  );
}

function Lock({ lockedUntil }: { lockedUntil: string | null }) {
  const { t, i18n } = useTranslation();
  const until = activeLock(lockedUntil, serverNow());
  if (until === null) return null;
  return (
    <p className="card notice notice--warning" role="note">
      {t('withdraw.locked', { time: formatTime(until, i18n.language, 'short') })}
    </p>
  );
}

function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A time in the user's zone, then in the business zone when that shows another clock time. */
function Zoned({ time }: { time: TwoZoneTime }) {
  const { t } = useTranslation();
  return (
    <>
      {time.local}
      {time.business !== null && ` ${t('withdraw.business_time', { time: time.business })}`}
    </>
  );
}

/** Whether withdrawals are open now, until when or from when, and the hours they keep. */
function WindowCard({ terms }: { terms: WithdrawIndexData }) {
  const { t, i18n } = useTranslation();
  const view = windowView(terms.window, i18n.language, localZone());
  return (
    <CardSection id="withdraw-window" title={t('withdraw.window_title')}>
      <p className={`withdraw-window__state withdraw-window__state--${view.open ? 'open' : 'closed'}`}>
        {view.open ? t('withdraw.window_open') : t('withdraw.window_closed')}
      </p>
      {view.open && view.until !== null && (
        <p>
          {t('withdraw.window_until')} <Zoned time={view.until} />
        </p>
      )}
      {!view.open && view.next !== null && (
        <p>
          {t('withdraw.window_next')} <Zoned time={view.next} />
        </p>
      )}
      <p className="muted withdraw-window__hours">
        {t('withdraw.window_hours', {
          opens: view.hours.opens,
          closes: view.hours.closes,
          zone: view.hours.timeZone,
        })}
      </p>
    </CardSection>
  );
}

/** The figures a withdrawal is held to now. */
function TermsCard({ terms }: { terms: WithdrawIndexData }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t('withdraw.fee'), terms.fee],
    [t('withdraw.minimum'), terms.minimum],
    [t('withdraw.daily_limit'), terms.dailyLimit],
    [t('withdraw.daily_remaining'), terms.dailyRemaining],
    [t('withdraw.maximum'), terms.maximum],
  ];
  return (
    <CardSection id="withdraw-terms" title={t('withdraw.terms_title')}>
      <dl className="withdraw-figures">
        {rows.map(([label, amount]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{shownAmount(amount)} USDT</dd>
          </div>
        ))}
      </dl>
      <p className="muted withdraw-figures__note">
        {t('withdraw.review_above', { amount: shownAmount(terms.reviewAbove) })}
      </p>
    </CardSection>
  );
}

/** An amount problem in the user's language. */
function useAmountProblemText() {
  const { t } = useTranslation();
  const formText = useAmountFormText('withdraw');
  return (problem: AmountProblem): string => {
    switch (problem.key) {
      case 'below_minimum':
        return t('withdraw.amount_below_minimum', { amount: problem.amount });
      case 'above_available':
        return t('withdraw.amount_above_available', { amount: problem.amount, fee: problem.fee });
      case 'above_daily':
        return t('withdraw.amount_above_daily', { amount: problem.amount });
      case 'above_maximum':
        return t('withdraw.amount_above_maximum', { amount: problem.amount });
      default:
        return formText(problem);
    }
  };
}

function WithdrawForm({
  active,
  terms,
  methods,
  methodId,
  onChooseMethod,
  online,
  onSettled,
}: {
  active: ActiveAccount;
  terms: WithdrawIndexData | null;
  methods: readonly PaymentMethodRecord[];
  methodId: string | null;
  onChooseMethod: (id: string) => void;
  online: boolean;
  onSettled: () => void;
}) {
  const { t } = useTranslation();
  const go = useGo();
  const check = useChecks();
  const amountProblem = useAmountProblemText();
  const form = useForm({ amount: '', tradePassword: '', googleCode: '' });
  const [methodError, setMethodError] = useState<string | undefined>(undefined);
  const outcomeOf = useCallback(
    (command: WithdrawCommand): CommandOutcome | null => {
      const outcome = commandOutcome(command);
      return outcome?.kind === 'refused' && command.answer === null
        ? { kind: 'refused', code: 400, message: t('withdraw.refused_unknown') }
        : outcome;
    },
    [t],
  );
  const texts = useFlowTexts('withdraw');
  const flow = useCommandFlow({
    kind: 'withdraw-create',
    active,
    outcomeOf,
    sink: form.sink,
    texts,
    // The page moves on, or lets the user try again with a new code.
    onSettled: (_command, outcome) => {
      if (outcome.kind === 'done') {
        toast(t('withdraw.done'));
        onSettled();
        go(ROUTES.withdrawRecords);
        return;
      }
      form.set('googleCode')('');
      // A wrong or used code is told beside the code field too (after clearing it).
      if (outcome.kind === 'refused' && outcome.code === BodyCode.oneTimeCodeRejected)
        form.sink.show('googleCode', outcome.message);
      onSettled();
    },
  });

  const chosen = methods.find((method) => method.id === methodId) ?? null;
  const usabilityOf = (method: PaymentMethodRecord): Usability =>
    methodUsability(method, serverNow(), terms?.method);

  /** Why the chosen method cannot be used, or null when it can. */
  const methodProblem = (): string | null => {
    if (chosen === null) return t('withdraw.choose_method');
    return usabilityOf(chosen).usable ? null : t('withdraw.method_cooling');
  };

  const onSubmit = form.submit(
    ({ amount, tradePassword, googleCode }) => {
      setMethodError(methodProblem() ?? undefined);
      const problem = checkWithdrawAmount(amount, terms);
      return {
        ...(problem === null ? {} : { amount: amountProblem(problem) }),
        ...check({ tradePassword: checkPassword(tradePassword) }),
        ...(checkCode(googleCode.trim()) === null
          ? {}
          : {
              googleCode:
                googleCode.trim() === ''
                  ? t('server.field_required', { field: t('field.authenticatorCode') })
                  : t('withdraw.code_format'),
            }),
      };
    },
    async ({ amount, tradePassword, googleCode }) => {
      // Shown beside the picker by the check above.
      if (chosen === null || methodProblem() !== null) return;
      await flow.enqueue({
        kind: 'withdraw-create',
        params: {
          accountId: active.accountId,
          amount: amount.trim(),
          methodId: chosen.id,
          googleCode: googleCode.trim(),
          tradePassword,
        },
      });
    },
  );

  const breakdown = terms === null ? null : breakdownOf(form.values.amount, terms.fee);
  const disabledReason = online ? null : t('withdraw.offline');

  return (
    <CardForm id="withdraw-form" title={t('withdraw.form_title')} onSubmit={onSubmit}>
      <MethodPicker
        methods={methods}
        value={methodId}
        usabilityOf={usabilityOf}
        error={methodError}
        onChange={(id) => {
          setMethodError(undefined);
          onChooseMethod(id);
        }}
      />
      <Field
        label={t('field.amount')}
        {...form.bind('amount')}
        inputMode="decimal"
        autoComplete="off"
        required
        addon={
          <button
            type="button"
            className="code-button withdraw-max"
            disabled={terms === null}
            onClick={() => {
              if (terms !== null) form.set('amount')(maximumText(terms));
            }}
          >
            {t('withdraw.max')}
          </button>
        }
      />
      {terms !== null && (
        <dl className="withdraw-breakdown" aria-live="polite">
          <Figure
            label={t('withdraw.receive')}
            value={breakdown === null ? '—' : `${breakdown.receive} USDT`}
          />
          <Figure label={t('withdraw.fee')} value={`${shownAmount(terms.fee)} USDT`} />
          <Figure label={t('withdraw.total')} value={breakdown === null ? '—' : `${breakdown.total} USDT`} />
        </dl>
      )}
      <TradePasswordField label={t('field.tradePassword')} {...form.bind('tradePassword')} />
      <OneTimeCodeField
        label={t('field.authenticatorCode')}
        pattern="[0-9]*"
        required
        {...form.bind('googleCode')}
      />
      <p className="muted form__hint">{t('withdraw.online_only')}</p>
      <SubmitButton busy={flow.sending} reason={disabledReason}>
        {t('withdraw.submit')}
      </SubmitButton>
      <CommandLines
        flow={flow}
        status={t('withdraw.sending', { amount: flow.command?.params.amount ?? '' })}
        className="withdraw-status"
      />
    </CardForm>
  );
}

/** The user's methods as choices; one still in its cooldown is shown with its time and cannot be chosen. */
function MethodPicker({
  methods,
  value,
  usabilityOf,
  error,
  onChange,
}: {
  methods: readonly PaymentMethodRecord[];
  value: string | null;
  usabilityOf: (method: PaymentMethodRecord) => Usability;
  error: string | undefined;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  return (
    <fieldset
      className={`withdraw-methods${error ? ' field--error' : ''}`}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="field__label">{t('withdraw.method')}</legend>
      {methods.length === 0 ? (
        <p className="muted">{t('withdraw.no_methods')}</p>
      ) : (
        <ul className="withdraw-methods__list">
          {methods.map((method) => {
            const usability = usabilityOf(method);
            return (
              <li key={method.id}>
                <label className={`withdraw-method${usability.usable ? '' : ' withdraw-method--cooling'}`}>
                  <input
                    type="radio"
                    name="withdraw-method"
                    value={method.id}
                    checked={value === method.id}
                    disabled={!usability.usable}
                    onChange={() => onChange(method.id)}
                  />
                  <span className="withdraw-method__text">
                    <span className="withdraw-method__name">
                      {method.kind === 'chain' ? t('withdraw.kind_chain') : t('withdraw.kind_bank')} ·{' '}
                      {methodName(method)}
                    </span>
                    {!usability.usable && (
                      <span className="withdraw-method__cooldown">
                        {t('withdraw.usable_from')} <DateTime at={usability.usableAt} style="short" />
                      </span>
                    )}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <p id={errorId} className="field__error" role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
      <Link className="withdraw-methods__manage" to={ROUTES.withdraw2}>
        {t('withdraw.manage_methods')}
      </Link>
    </fieldset>
  );
}
