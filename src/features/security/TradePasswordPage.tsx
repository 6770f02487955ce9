/**
 * pages/update_pwd/update_pwd1 and update_pwd2 (spec section 4, password change mode 2; body code
 * 300 leads here): the first trade password, or a change with the old one and an e-mailed code
 * (withdrawals then wait 24 hours).
 */
import { useTranslation } from 'react-i18next';
import { checkConfirmPassword, checkPassword } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { toast } from '../../ui/toast.js';
import { SubmitButton } from '../../ui/form-fields.js';
import { useChecks } from '../../ui/field-messages.js';
import { useForm } from '../../ui/use-form.js';
import { NewPasswordFields, PasswordChangeForm } from './password-form.js';
import { SetOrChange } from './SetOrChange.js';

function SetTradePassword({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ tradePassword: '', confirmPassword: '' });
  const submit = form.submit(
    ({ tradePassword, confirmPassword }) =>
      check({
        tradePassword: checkPassword(tradePassword),
        confirmPassword: checkConfirmPassword(tradePassword, confirmPassword),
      }),
    async ({ tradePassword, confirmPassword }) => {
      const outcome = await send('security-bind-trade-password', { tradePassword, confirmPassword });
      if (!handle(outcome, form.sink)) return;
      toast(outcome.message);
      onDone();
    },
  );
  return (
    <form className="form page-padding" onSubmit={submit} noValidate aria-labelledby="trade-set-title">
      <h2 id="trade-set-title">{t('security.trade_set_title')}</h2>
      <p className="hint">{t('security.trade_set_hint')}</p>
      <NewPasswordFields
        label={t('field.tradePassword')}
        password={form.bind('tradePassword')}
        confirm={form.bind('confirmPassword')}
      />
      <SubmitButton busy={form.busy}>{t('security.submit')}</SubmitButton>
    </form>
  );
}

function ChangeTradePassword({ email, onDone }: { email: string; onDone(): void }) {
  const { t } = useTranslation();
  return (
    <PasswordChangeForm
      oldField="oldTradePassword"
      newField="tradePassword"
      oldLabel={t('field.oldTradePassword')}
      newLabel={t('field.newTradePassword')}
      codeKind="security-send-trade-password-code"
      labelledBy="trade-change-title"
      save={(change) => send('security-update-trade-password', change)}
      onDone={onDone}
    >
      <h2 id="trade-change-title">{t('security.trade_change_title')}</h2>
      <p className="hint">{t('security.trade_change_hint', { email })}</p>
    </PasswordChangeForm>
  );
}

export default function TradePasswordPage() {
  return (
    <SetOrChange
      isSet={(user) => user.tradePasswordSet}
      set={(done) => <SetTradePassword onDone={done} />}
      change={(user, done) => <ChangeTradePassword email={user.email} onDone={done} />}
    />
  );
}
