/** The first setup step: the one-time password replaced by the operator's own. */
import { Button, Form, Input, Typography } from 'antd';
import { doneDataSchema } from '../../contract/api/admin.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { Field } from '../ui/field.js';
import { Page } from '../ui/page.js';
import { SetupFrame } from '../ui/setup-frame.js';
import { useBusyAction } from '../ui/use-action.js';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  repeatPassword: string;
}

export function ChangePasswordPage() {
  const { t } = useI18n();
  const { api, refreshMe } = useConsole();
  const [form] = Form.useForm<PasswordForm>();
  const { busy, run } = useBusyAction();

  const submit = async ({ oldPassword, newPassword }: PasswordForm) => {
    const done = await run(
      () => api.command('/api/admin/auth/password', { oldPassword, newPassword }, doneDataSchema),
      form,
    );
    if (done) await refreshMe();
  };

  return (
    <SetupFrame>
      <Page title={t('password.title')}>
        <Typography.Paragraph>{t('password.intro')}</Typography.Paragraph>
        <Form form={form} name="password" layout="vertical" onFinish={submit} requiredMark={false}>
          <Field label="field.oldPassword" name="oldPassword" required>
            <Input.Password autoComplete="current-password" />
          </Field>
          <Field label="field.newPassword" name="newPassword" required>
            <Input.Password autoComplete="new-password" />
          </Field>
          <Form.Item
            label={t('field.repeatPassword')}
            name="repeatPassword"
            dependencies={['newPassword']}
            rules={[
              { required: true, message: t('field.required', { field: t('field.repeatPassword') }) },
              ({ getFieldValue }) => ({
                validator: (_rule, value) =>
                  !value || getFieldValue('newPassword') === value
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('password.mismatch'))),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} block>
            {t('password.submit')}
          </Button>
        </Form>
      </Page>
    </SetupFrame>
  );
}
