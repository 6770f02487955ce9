/** Sign-in: e-mail and password, and the authenticator code once the server asks for it. */
import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { adminSessionDataSchema } from '../../contract/api/admin.js';
import type { ConsoleApi } from '../api.js';
import { ConsoleApiError } from '../api.js';
import { useI18n } from '../i18n/i18n.js';
import { Page } from '../ui/page.js';
import { SetupFrame } from '../ui/setup-frame.js';
import { useAction } from '../ui/use-action.js';
import { Field, GoogleCodeField, InputField } from '../ui/field.js';

interface SignInForm {
  email: string;
  password: string;
  googleCode?: string;
}

export function SignInPage({
  api,
  onSignedIn,
}: {
  api: ConsoleApi;
  onSignedIn(session: z.infer<typeof adminSessionDataSchema>): Promise<void>;
}) {
  const { t } = useI18n();
  const [form] = Form.useForm<SignInForm>();
  const [needsCode, setNeedsCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = useAction();

  const submit = async (values: SignInForm) => {
    setBusy(true);
    const params = needsCode ? values : { email: values.email, password: values.password };
    const session = await run(async () => {
      try {
        return await api.command('/api/admin/auth/login', params, adminSessionDataSchema);
      } catch (error) {
        // A bound operator who gave no code: show the code field (the server names it).
        if (error instanceof ConsoleApiError && error.field === 'googleCode' && !needsCode) {
          setNeedsCode(true);
          return undefined;
        }
        throw error;
      }
    }, form);
    if (session) await onSignedIn(session);
    setBusy(false);
  };

  return (
    <SetupFrame>
      <Page title={t('signin.title')}>
        <Form form={form} name="signin" layout="vertical" onFinish={submit} requiredMark={false}>
          <InputField label="field.email" name="email" required type="email" autoComplete="username" />
          <Field label="field.password" name="password" required>
            <Input.Password autoComplete="current-password" />
          </Field>
          {needsCode ? (
            <>
              <Typography.Paragraph>{t('signin.code_needed')}</Typography.Paragraph>
              <GoogleCodeField autoFocus />
            </>
          ) : null}
          <Button type="primary" htmlType="submit" loading={busy} block>
            {t('signin.submit')}
          </Button>
        </Form>
      </Page>
    </SetupFrame>
  );
}
