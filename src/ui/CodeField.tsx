/** The e-mailed code's field with its resend button (the spec's 60 s countdown), on both verify pages. */
import { useTranslation } from 'react-i18next';
import { CodeButton } from './CodeButton.js';
import { OneTimeCodeField } from './form-fields.js';

interface CodeFieldProps {
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  /** Sends a new code; resolves with the seconds to wait. */
  onResend(): Promise<number>;
  /** When the countdown of the code sent on the previous page ends (ms). */
  sentUntil: number;
}

export function CodeField({ value, onChange, error, onResend, sentUntil }: CodeFieldProps) {
  const { t } = useTranslation();
  return (
    <OneTimeCodeField
      label={t('field.code')}
      value={value}
      onChange={onChange}
      error={error}
      addon={<CodeButton onSend={onResend} initialUntil={sentUntil} />}
    />
  );
}
