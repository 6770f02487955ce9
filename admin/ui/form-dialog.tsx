/**
 * A dialog for an action that takes input: it states the action's effect above the fields and
 * runs the action on Confirm. `effect` is recomputed from the values as they are typed.
 */
import { Form, Modal, Typography, type FormInstance } from 'antd';
import { useState, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.js';

export function FormDialog<T extends object>({
  open,
  name,
  title,
  effect,
  children,
  onSubmit,
  onClose,
  initialValues,
}: {
  open: boolean;
  name: string;
  title: string;
  effect(values: Partial<T>): string;
  children: ReactNode;
  /** Resolves true when done (the dialog closes), false to stay open (an error was shown). */
  onSubmit(values: T, form: FormInstance<T>): Promise<boolean>;
  onClose(): void;
  initialValues?: Partial<T>;
}) {
  const { t } = useI18n();
  const [form] = Form.useForm<T>();
  const [busy, setBusy] = useState(false);
  const values = Form.useWatch([], form) as Partial<T> | undefined; // the form's values, typed by T
  const submit = async (filled: T) => {
    setBusy(true);
    const done = await onSubmit(filled, form);
    setBusy(false);
    if (done) onClose();
  };
  return (
    <Modal
      open={open}
      title={title}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender={false}
    >
      <Typography.Paragraph strong>{effect(values ?? initialValues ?? {})}</Typography.Paragraph>
      <Form<T>
        form={form}
        name={name}
        layout="vertical"
        onFinish={submit}
        requiredMark={false}
        {...(initialValues ? { initialValues } : {})}
        preserve={false}
      >
        {children}
      </Form>
    </Modal>
  );
}
