/** pages/register/register: e-mail, password, confirm and invite code; checks them, mails a code, then verify_code. */
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  checkConfirmPassword,
  checkEmail,
  checkPassword,
  checkRequired,
} from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { Field } from '../../ui/Field.js';
import { toast } from '../../ui/toast.js';
import { AuthLayout } from './AuthLayout.js';
import { secondsToWait } from './code-wait.js';
import { drafts } from './flow.js';
import { useChecks } from '../../ui/field-messages.js';
import { EmailField, PasswordField, SubmitButton } from '../../ui/form-fields.js';
import { useForm } from '../../ui/use-form.js';

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const [search] = useSearchParams();
  const draft = drafts.register;
  const form = useForm({
    email: draft?.email ?? '',
    password: draft?.password ?? '',
    confirmPassword: draft?.confirmPassword ?? '',
    inviteCode: draft?.inviteCode ?? search.get('invite') ?? '',
  });

  const submit = form.submit(
    ({ email, password, confirmPassword, inviteCode }) =>
      check({
        email: checkEmail(email),
        password: checkPassword(password),
        confirmPassword: checkConfirmPassword(password, confirmPassword),
        inviteCode: checkRequired(inviteCode),
      }),
    async ({ email, password, confirmPassword, inviteCode }) => {
      const params = { email: email.trim(), password, confirmPassword, inviteCode: inviteCode.trim() };
      if (!handle(await send('auth-check-register-info', params), form.sink)) return;
      const sent = await send('auth-send-register-code', { email: params.email });
      const wait = secondsToWait(sent);
      if (!handle(sent, form.sink) && wait === 0) return;
      if (sent.kind === 'ok') toast(sent.message);
      drafts.register = { ...params, codeSentUntil: Date.now() + wait * 1000 };
      navigate(ROUTES.registerVerify);
    },
  );

  return (
    <AuthLayout title={t('auth.register_title')} subtitle={t('auth.register_subtitle')}>
      <form className="form" onSubmit={submit} noValidate>
        <EmailField {...form.bind('email')} />
        <PasswordField label={t('field.password')} autoComplete="new-password" {...form.bind('password')} />
        <PasswordField
          label={t('field.confirmPassword')}
          autoComplete="new-password"
          {...form.bind('confirmPassword')}
        />
        <Field
          label={t('field.inviteCode')}
          autoComplete="off"
          autoCapitalize="characters"
          {...form.bind('inviteCode')}
        />
        <SubmitButton busy={form.busy}>{t('auth.next')}</SubmitButton>
      </form>
      <p className="auth__links">
        <Link to={ROUTES.login}>{t('auth.have_account')}</Link>
      </p>
    </AuthLayout>
  );
}
