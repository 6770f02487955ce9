/** pages/forget_pwd/forget_pwd1: the new password and its confirmation; every session is revoked. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { checkConfirmPassword, checkPassword } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { toast } from '../../ui/toast.js';
import { drafts } from './flow.js';
import { useChecks } from '../../ui/field-messages.js';
import { SubmitButton } from '../../ui/form-fields.js';
import { useForm } from '../../ui/use-form.js';
import { NewPasswordFields } from '../security/password-form.js';

export default function ForgotResetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ password: '', confirmPassword: '' });
  // The draft as this page opened with it: clearing drafts.forgot on success must not re-render
  // the page into its no-draft redirect before the navigation away lands (router updates are transitions).
  const [draft] = useState(() => drafts.forgot);
  if (!draft?.code) return <Navigate to={ROUTES.forgot} replace />;

  const submit = form.submit(
    ({ password, confirmPassword }) =>
      check({
        password: checkPassword(password),
        confirmPassword: checkConfirmPassword(password, confirmPassword),
      }),
    async ({ password, confirmPassword }) => {
      const outcome = await send('auth-forgot', {
        email: draft.email,
        code: draft.code,
        password,
        confirmPassword,
      });
      if (!handle(outcome, form.sink)) return;
      drafts.forgot = null;
      toast(outcome.message);
      navigate(ROUTES.login, { replace: true });
    },
  );

  return (
    <form className="form page-padding" onSubmit={submit} noValidate>
      <p className="hint">{t('auth.reset_hint', { email: draft.email })}</p>
      <NewPasswordFields
        label={t('field.newPassword')}
        password={form.bind('password')}
        confirm={form.bind('confirmPassword')}
      />
      <SubmitButton busy={form.busy}>{t('auth.reset_submit')}</SubmitButton>
    </form>
  );
}
