/**
 * A new hosting order on the Hosting tab: the products on offer as radio cards (kept on the
 * device, shown offline with their age), the amount with its earnings preview computed by the
 * daily job's own integer rule, and the trade password. The order is the outbox command
 * `hosting-create`, sent only while online and expired after a minute; the form follows it to
 * its answer.
 */
import { AmountField, SubmitButton, TradePasswordField } from '../../ui/form-fields.js';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BalanceRecord } from '../../../contract/api/account.js';
import type { HostingProduct } from '../../../contract/api/hosting.js';
import { checkPassword } from '../../../contract/validation.js';
import type { HostingConfigRecord } from '../../../client-db/schema.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { toast } from '../../ui/toast.js';
import { useChecks } from '../../ui/field-messages.js';
import { useForm } from '../../ui/use-form.js';
import { CommandLines } from '../outbox/CommandLines.js';
import { useCommandFlow } from '../outbox/use-command-flow.js';
import { Figure, useAmountProblemText } from './hosting-parts.js';
import {
  commandOutcome,
  earningsPreview,
  payoutKey,
  ratePercent,
  shownAmount,
  type EarningsPreview,
} from './hosting-view.js';
import type { ConfigState } from './use-hosting.js';
/** The products (as radio cards), the amount with its earnings preview, the trade password. */
export function CreateOrder({
  active,
  config,
  state,
  balance,
  online,
}: {
  active: ActiveAccount;
  config: HostingConfigRecord | null | undefined;
  state: ConfigState;
  balance: BalanceRecord | null;
  online: boolean;
}) {
  const { t } = useTranslation();
  const check = useChecks();
  const problemText = useAmountProblemText();
  const form = useForm({ amount: '', tradePassword: '' });
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [productError, setProductError] = useState<string | undefined>(undefined);
  const flow = useCommandFlow({
    kind: 'hosting-create',
    active,
    resume: false,
    outcomeOf: commandOutcome,
    sink: form.sink,
    texts: {
      offline: t('hosting.create_offline'),
      refused: (message) => t('hosting.refused', { message }),
      expired: t('hosting.create_expired'),
      cancelled: t('hosting.cancelled'),
    },
    onSettled: (command, outcome) => {
      if (outcome.kind !== 'done') return;
      toast(t('hosting.created', { amount: command.params.amount }));
      form.set('amount')('');
    },
  });
  const products = config?.products ?? [];
  const product = products.find((candidate) => candidate.id === chosenId) ?? products[0] ?? null;
  const preview =
    product === null ? null : earningsPreview(product, form.values.amount, balance?.cash ?? null);

  const onSubmit = form.submit(
    ({ tradePassword }) => {
      setProductError(product === null ? t('hosting.choose_product') : undefined);
      const amountProblem =
        preview === null || preview.kind === 'ok'
          ? null
          : preview.kind === 'empty'
            ? problemText({ key: 'required' })
            : problemText(preview.problem);
      return {
        ...(amountProblem === null ? {} : { amount: amountProblem }),
        ...check({ tradePassword: checkPassword(tradePassword) }),
      };
    },
    async ({ amount, tradePassword }) => {
      if (product === null) return;
      const queued = await flow.enqueue({
        kind: 'hosting-create',
        params: {
          accountId: active.accountId,
          productId: product.id,
          amount: amount.trim(),
          tradePassword,
        },
      });
      if (queued) form.set('tradePassword')('');
    },
  );

  const disabledReason = online ? null : t('hosting.create_offline');
  return (
    <form
      className="card form hosting-create"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="hosting-products"
    >
      <h2 id="hosting-products" className="card__title">
        {t('hosting.products_title')}
      </h2>
      <ProductsState config={config} state={state} online={online} />
      {products.length > 0 && (
        <ProductPicker
          products={products}
          value={product?.id ?? null}
          error={productError}
          onChange={(id) => {
            setProductError(undefined);
            setChosenId(id);
          }}
        />
      )}
      <AmountField label={t('hosting.amount')} {...form.bind('amount')} />
      {product !== null && preview !== null && <Preview product={product} preview={preview} />}
      <TradePasswordField label={t('field.tradePassword')} {...form.bind('tradePassword')} />
      <p className="muted form__hint">{t('hosting.create_online_only')}</p>
      <SubmitButton busy={flow.sending} disabled={products.length === 0} reason={disabledReason}>
        {t('hosting.create')}
      </SubmitButton>
      <CommandLines
        flow={flow}
        status={flow.command == null ? '' : t('hosting.creating', { amount: flow.command.params.amount })}
        className="hosting-status"
      />
    </form>
  );
}

/** Where the products come from: their age when saved, or why none are shown. */
function ProductsState({
  config,
  state,
  online,
}: {
  config: HostingConfigRecord | null | undefined;
  state: ConfigState;
  online: boolean;
}) {
  const { t, i18n } = useTranslation();
  if (config === undefined) return null;
  if (config === null)
    return (
      <p className="muted">
        {state === 'loading' ? t('hosting.products_loading') : t('hosting.products_none_saved')}
      </p>
    );
  return (
    <>
      {config.products.length === 0 && <p className="muted">{t('hosting.products_empty')}</p>}
      {state !== 'fresh' && <AsOf syncedAt={config.fetchedAt} />}
      {(!online || state === 'saved') && <p className="muted hosting-hint">{t('hosting.products_saved')}</p>}
      {config.locale !== i18n.language && state !== 'fresh' && (
        <p className="muted hosting-hint">{t('hosting.products_other_language')}</p>
      )}
    </>
  );
}

function ProductPicker({
  products,
  value,
  error,
  onChange,
}: {
  products: readonly HostingProduct[];
  value: string | null;
  error: string | undefined;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const baseId = useId();
  return (
    <fieldset
      className={`hosting-products${error ? ' field--error' : ''}`}
      aria-describedby={error ? errorId : undefined}
    >
      {/* The card's title says "Products" already; the legend names the group for screen readers. */}
      <legend className="visually-hidden">{t('hosting.product')}</legend>
      <ul className="hosting-products__list">
        {products.map((product) => {
          const termsId = `${baseId}-${product.id}`;
          return (
            <li key={product.id} className="hosting-product">
              <label className="hosting-product__choice">
                <input
                  type="radio"
                  name="hosting-product"
                  value={product.id}
                  checked={value === product.id}
                  onChange={() => onChange(product.id)}
                  aria-describedby={termsId}
                />
                <span className="hosting-product__name">{product.name}</span>
                <span className="hosting-product__rate">
                  {t('hosting.rate_per_day', { rate: ratePercent(product.dailyRate) })}
                </span>
              </label>
              <ProductTerms id={termsId} product={product} />
            </li>
          );
        })}
      </ul>
      <p id={errorId} className="field__error" role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
    </fieldset>
  );
}

/** A product's terms: term, bounds, payout and its early-exit rule. */
function ProductTerms({ id, product }: { id: string; product: HostingProduct }) {
  const { t } = useTranslation();
  return (
    <p id={id} className="hosting-product__terms">
      <span>{t('hosting.term_days', { count: product.days })}</span>
      <span>
        {t('hosting.bounds', {
          minimum: shownAmount(product.minimum),
          maximum: shownAmount(product.maximum),
        })}
      </span>
      <span>{t(payoutKey(product.payout))}</span>
      <span>
        {product.earlyExit
          ? t('hosting.early_exit_yes', { rate: ratePercent(product.penaltyRate) })
          : t('hosting.early_exit_no')}
      </span>
    </p>
  );
}

/** What the amount typed earns under the product chosen, as the daily job will pay it. */
function Preview({ product, preview }: { product: HostingProduct; preview: EarningsPreview }) {
  const { t } = useTranslation();
  const problemText = useAmountProblemText();
  return (
    <section className="hosting-preview" aria-labelledby="hosting-preview" aria-live="polite">
      <h3 id="hosting-preview" className="hosting-preview__title">
        {t('hosting.preview_title')}
      </h3>
      {preview.kind === 'ok' ? (
        <>
          <dl className="figure-list">
            <Figure label={t('hosting.preview_daily')} value={`${preview.daily} USDT`} />
            <Figure
              label={t('hosting.preview_total', { count: preview.days })}
              value={`${preview.total} USDT`}
            />
            <Figure label={t('hosting.preview_at_maturity')} value={`${preview.atMaturity} USDT`} strong />
          </dl>
          <p className="muted hosting-hint">
            {t(
              product.payout === 'daily' ? 'hosting.preview_note_daily' : 'hosting.preview_note_at_maturity',
              {
                count: product.days,
              },
            )}
          </p>
          {preview.short && <p className="hosting-short">{t('hosting.preview_short')}</p>}
        </>
      ) : (
        <p className="muted">
          {preview.kind === 'empty'
            ? t('hosting.preview_empty', {
                minimum: shownAmount(product.minimum),
                maximum: shownAmount(product.maximum),
              })
            : problemText(preview.problem)}
        </p>
      )}
    </section>
  );
}
