/**
 * The anti-phishing code (security centre): whether one is set (never the code itself), and the
 * form to set or change it, confirmed with the authenticator's code when one is bound, else with
 * the trade password.
 */
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../../contract/api/user.js';
import { checkAntiPhishingCode, checkCode, checkPassword } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { CardSection } from '../../ui/Card.js';
import { Field } from '../../ui/Field.js';
import { useChecks } from '../../ui/field-messages.js';
import { OneTimeCodeField, SubmitButton, TradePasswordField } from '../../ui/form-fields.js';
import { toast } from '../../ui/toast.js';
import { useForm } from '../../ui/use-form.js';

export function AntiPhishingForm({ user, onDone }: { user: UserInfo; onDone(): void }) {
  const { t } = useTranslation();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ code: '', googleCode: '', tradePassword: '' });
  const withAuthenticator = user.authenticatorBound;
  const submit = form.submit(
    ({ code, googleCode, tradePassword }) =>
      check({
        code: checkAntiPhishingCode(code.trim()),
        googleCode: withAuthenticator ? checkCode(googleCode.trim()) : null,
        tradePassword: withAuthenticator ? null : checkPassword(tradePassword),
      }),
    async ({ code, googleCode, tradePassword }) => {
      const outcome = await send(
        'security-set-anti-phishing',
        withAuthenticator
          ? { code: code.trim(), googleCode: googleCode.trim() }
          : { code: code.trim(), tradePassword },
      );
      if (!handle(outcome, form.sink)) return;
      toast(outcome.message);
      for (const field of ['code', 'googleCode', 'tradePassword'] as const) form.set(field)('');
      onDone();
    },
  );
  return (
    <CardSection id="centre-phishing" title={t('centre.phishing_title')}>
      <p className="hint">{t('centre.phishing_hint')}</p>
      <p className="centre-status" data-testid="anti-phishing-status">
        {user.antiPhishingSet ? t('centre.phishing_set') : t('centre.phishing_not_set')}
      </p>
      <form className="form" onSubmit={submit} noValidate aria-labelledby="centre-phishing">
        <Field
          label={t('centre.phishing_code')}
          autoComplete="off"
          maxLength={20}
          required
          {...form.bind('code')}
        />
        {withAuthenticator ? (
          <OneTimeCodeField label={t('field.googleCode')} required {...form.bind('googleCode')} />
        ) : (
          <TradePasswordField label={t('field.tradePassword')} {...form.bind('tradePassword')} />
        )}
        <SubmitButton busy={form.busy}>
          {user.antiPhishingSet ? t('centre.phishing_change') : t('centre.phishing_submit')}
        </SubmitButton>
      </form>
    </CardSection>
  );
}
