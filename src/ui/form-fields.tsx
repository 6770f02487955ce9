/** The inputs and the submit button the auth, security and money forms repeat, bound through useForm's `bind`. */
import { Button } from './adm-button.js';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX_LENGTH } from '../../contract/constants.js';
import { Field } from './Field.js';

/** What `form.bind(field)` gives. */
export interface Bound {
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

/** A six-digit one-time code (the authenticator's or an e-mailed one): the numeric keypad, autofilled from a message. */
export function OneTimeCodeField(
  props: Bound & { label: string; required?: boolean; pattern?: string; addon?: ReactNode },
) {
  return <Field inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...props} />;
}

/** An amount typed in decimal (up to the contract's 20 characters), as every money form asks it. */
export function AmountField(props: Bound & { label: string; addon?: ReactNode; readOnly?: boolean }) {
  return <Field inputMode="decimal" autoComplete="off" maxLength={20} required {...props} />;
}

/** A whole count (machines, days): digits only, at most `maxLength` of them. */
export function CountField(props: Bound & { label: string; maxLength: number }) {
  return <Field inputMode="numeric" autoComplete="off" required {...props} />;
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

/**
 * A form's submit button, busy while its work runs. With a `reason` it is disabled and the reason
 * stands under it, naming why for assistive technology too (aria-describedby).
 */
export function SubmitButton({
  busy,
  children,
  disabled = false,
  reason = null,
}: {
  busy: boolean;
  children: ReactNode;
  disabled?: boolean;
  reason?: string | null;
}) {
  const hintId = useId();
  return (
    <>
      <Button
        type="submit"
        color="primary"
        block
        size="large"
        loading={busy}
        disabled={disabled || reason !== null}
        aria-describedby={reason === null ? undefined : hintId}
      >
        {children}
      </Button>
      {reason !== null && (
        <p id={hintId} className="muted submit-hint">
          {reason}
        </p>
      )}
    </>
  );
}
