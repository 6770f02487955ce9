/** A form field with its visible label bound to the input (antd Form.Item), required or not; and the plain text input in one. */
import { Form, Input, type InputProps } from 'antd';
import type { ReactNode } from 'react';
import { useI18n, type MessageKey } from '../i18n/i18n.js';

export function Field({
  label,
  vars,
  name,
  required = false,
  children,
}: {
  label: MessageKey;
  /** The label's placeholders, when it has some. */
  vars?: Record<string, string | number>;
  /** A field's name, or its path in the form's values (`['name', 'en']`). */
  name: string | Array<string | number>;
  required?: boolean;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const rules = required ? [{ required: true, message: t('field.required', { field: t(label, vars) }) }] : [];
  return (
    <Form.Item label={t(label, vars)} name={name} rules={rules}>
      {children}
    </Form.Item>
  );
}

/** A labelled text input (`inputMode` says which keyboard a number wants), the form's commonest field. */
export function InputField({
  label,
  name,
  required = false,
  ...input
}: {
  label: MessageKey;
  name: string;
  required?: boolean;
} & Omit<InputProps, 'name' | 'required'>) {
  return (
    <Field label={label} name={name} required={required}>
      <Input {...input} />
    </Field>
  );
}

/** The authenticator's six-digit code (`googleCode`), required: the numeric keypad, autofilled from a message. */
export function GoogleCodeField({ autoFocus = false }: { autoFocus?: boolean }) {
  return (
    <InputField
      label="field.googleCode"
      name="googleCode"
      required
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      autoFocus={autoFocus}
    />
  );
}
