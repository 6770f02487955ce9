/** A form field with its visible label bound to the input (antd Form.Item), required or not. */
import { Form } from 'antd';
import type { ReactNode } from 'react';
import { useI18n, type MessageKey } from '../i18n/i18n.js';

export function Field({
  label,
  name,
  required = false,
  children,
}: {
  label: MessageKey;
  name: string;
  required?: boolean;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const rules = required ? [{ required: true, message: t('field.required', { field: t(label) }) }] : [];
  return (
    <Form.Item label={t(label)} name={name} rules={rules}>
      {children}
    </Form.Item>
  );
}
