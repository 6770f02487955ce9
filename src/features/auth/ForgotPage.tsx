/** pages/forget_pwd/forget_pwd: the account's e-mail; mails a reset code, then verify_code. */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { checkEmail } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { toast } from '../../ui/toast.js';
import { secondsToWait } from './code-wait.js';
import { drafts } from './flow.js';
import { useChecks } from '../../ui/field-messages.js';
import { EmailField, SubmitButton } from '../../ui/form-fields.js';
import { useForm } from '../../ui/use-form.js';

export default function ForgotPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ email: drafts.forgot?.email ?? '' });

  const submit = form.submit(
    (values) => check({ email: checkEmail(values.email) }),
    async (values) => {
      const email = values.email.trim();
      const outcome = await send('auth-send-forget-code', { email });
      const wait = secondsToWait(outcome);
      if (!handle(outcome, form.sink) && wait === 0) return;
      if (outcome.kind === 'ok') toast(outcome.message);
      drafts.forgot = { email, code: '', codeSentUntil: Date.now() + wait * 1000 };
      navigate(ROUTES.forgotVerify);
    },
  );

  return (
    <form className="form page-padding" onSubmit={submit} noValidate>
      <p className="hint">{t('auth.forgot_hint')}</p>
      <EmailField {...form.bind('email')} />
      <SubmitButton busy={form.busy}>{t('auth.send_code')}</SubmitButton>
    </form>
  );
}
