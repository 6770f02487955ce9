/**
 * The step-up dialog: asks for an authenticator code when the server answers
 * `step_up_required`, steps the session up, and tells the waiting call whether to retry.
 */
import { Form, Modal, Typography } from 'antd';
import { stepUpDataSchema } from '../../contract/api/admin.js';
import type { ConsoleApi } from '../api.js';
import { useI18n } from '../i18n/i18n.js';
import { useBusyAction } from '../ui/use-action.js';
import { GoogleCodeField } from '../ui/field.js';

export interface StepUpRequest {
  resolve(steppedUp: boolean): void;
}

export function StepUpDialog({ api, request }: { api: ConsoleApi; request: StepUpRequest | null }) {
  const { t } = useI18n();
  const [form] = Form.useForm<{ googleCode: string }>();
  const { busy, run } = useBusyAction();

  const finish = (steppedUp: boolean) => {
    form.resetFields();
    request?.resolve(steppedUp);
  };
  const submit = async ({ googleCode }: { googleCode: string }) => {
    const done = await run(
      () => api.command('/api/admin/auth/step-up', { googleCode }, stepUpDataSchema),
      form,
    );
    if (done) finish(true);
  };

  return (
    <Modal
      open={request !== null}
      title={t('stepup.title')}
      okText={t('stepup.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={() => finish(false)}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('stepup.intro')}</Typography.Paragraph>
      <Form form={form} name="stepup" layout="vertical" onFinish={submit} requiredMark={false}>
        <GoogleCodeField autoFocus />
      </Form>
    </Modal>
  );
}
