/**
 * The e-mail change (security centre, `updateUserEmail` in the spec): the new address with the
 * button that mails a code to the current address and one to the new (the 60 s countdown), both
 * codes, and what the change does before it is made (other devices signed out, withdrawals wait
 * 24 hours).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../../contract/api/user.js';
import { CODE_PATTERN, checkEmail } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { CardSection } from '../../ui/Card.js';
import { CodeButton } from '../../ui/CodeButton.js';
import { formatTime } from '../../ui/DateTime.js';
import { Field } from '../../ui/Field.js';
import { useChecks } from '../../ui/field-messages.js';
import { OneTimeCodeField, SubmitButton } from '../../ui/form-fields.js';
import { toast } from '../../ui/toast.js';
import { useForm } from '../../ui/use-form.js';
import { secondsToWait } from '../auth/code-wait.js';

/** A code is 6 digits; an empty one says so too (the generic "required" would name the wrong field). */
const codeCheck = (code: string) => (CODE_PATTERN.test(code) ? null : 'server.code_format');

export function EmailChangeForm({ user, onDone }: { user: UserInfo; onDone(): void }) {
  const { t, i18n } = useTranslation();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ newEmail: '', oldCode: '', newCode: '' });
  const [done, setDone] = useState<string | null>(null);

  const sendCodes = async () => {
    const newEmail = form.values.newEmail.trim();
    const problem = check({ newEmail: checkEmail(newEmail) }).newEmail;
    if (problem !== undefined) {
      form.setErrors((current) => ({ ...current, newEmail: problem }));
      return 0;
    }
    const outcome = await send('security-send-email-update-codes', { newEmail });
    if (handle(outcome, form.sink)) toast(outcome.message);
    return secondsToWait(outcome);
  };

  const submit = form.submit(
    ({ newEmail, oldCode, newCode }) =>
      check({
        newEmail: checkEmail(newEmail),
        oldCode: codeCheck(oldCode.trim()),
        newCode: codeCheck(newCode.trim()),
      }),
    async ({ newEmail, oldCode, newCode }) => {
      const outcome = await send('security-update-email', {
        newEmail: newEmail.trim(),
        oldCode: oldCode.trim(),
        newCode: newCode.trim(),
      });
      if (!handle(outcome, form.sink)) return;
      toast(outcome.message);
      setDone(
        `${t('centre.email_done', { email: outcome.data.email })} ${t('security.locked_until', {
          time: formatTime(outcome.data.withdrawalsLockedUntil, i18n.language, 'short'),
        })}`,
      );
      for (const field of ['newEmail', 'oldCode', 'newCode'] as const) form.set(field)('');
      onDone();
    },
  );

  return (
    <CardSection id="centre-email" title={t('centre.email_title')}>
      <p className="centre-status" data-testid="current-email">
        {t('centre.email_current', { email: user.email })}
      </p>
      {done === null ? null : (
        <p className="hint" role="status">
          {done}
        </p>
      )}
      <form className="form" onSubmit={submit} noValidate aria-labelledby="centre-email">
        <p className="hint">{t('centre.email_hint')}</p>
        <Field
          label={t('field.newEmail')}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          {...form.bind('newEmail')}
          addon={<CodeButton onSend={sendCodes} label={t('centre.send_codes')} />}
        />
        <OneTimeCodeField label={t('centre.old_code')} required {...form.bind('oldCode')} />
        <OneTimeCodeField label={t('centre.new_code')} required {...form.bind('newCode')} />
        <p className="hint">{t('centre.email_warning')}</p>
        <SubmitButton busy={form.busy}>{t('centre.email_submit')}</SubmitButton>
      </form>
    </CardSection>
  );
}
