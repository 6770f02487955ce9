/** The inputs and the submit button every auth form repeats, bound through useForm's `bind`. */
import { Button } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX_LENGTH } from '../../contract/constants.js';
import { Field } from './Field.js';

/** What `form.bind(field)` gives. */
interface Bound {
  value: string;
  onChange(value: string): void;
  error: string | undefined;
}

export function EmailField(bound: Bound) {
  const { t } = useTranslation();
  return <Field label={t('field.email')} type="email" autoComplete="email" inputMode="email" {...bound} />;
}

/** `current-password` on login; `new-password` where one is chosen (the browser may suggest one). */
export function PasswordField({
  label,
  autoComplete,
  ...bound
}: Bound & { label: string; autoComplete: 'current-password' | 'new-password' }) {
  return <Field label={label} type="password" autoComplete={autoComplete} {...bound} />;
}

/** The trade password a money command carries: masked, never autofilled, as long as the contract allows. */
export function TradePasswordField({ label, ...bound }: Bound & { label: string }) {
  return (
    <Field
      label={label}
      type="password"
      autoComplete="off"
      maxLength={PASSWORD_MAX_LENGTH}
      required
      {...bound}
    />
  );
}

export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <Button type="submit" color="primary" block size="large" loading={busy}>
      {children}
    </Button>
  );
}
