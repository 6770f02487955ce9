/** The second setup step: a new authenticator key as a QR code and as text, bound with a code. */
import { Button, Form, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { adminAuthenticatorDataSchema, doneDataSchema } from '../../contract/api/admin.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { Page } from '../ui/page.js';
import { SetupFrame } from '../ui/setup-frame.js';
import { useAction, useBusyAction } from '../ui/use-action.js';
import { GoogleCodeField } from '../ui/field.js';

export function BindAuthenticatorPage() {
  const { t } = useI18n();
  const { api, refreshMe } = useConsole();
  const [form] = Form.useForm<{ googleCode: string }>();
  const [key, setKey] = useState<{ secret: string; qr: string } | null>(null);
  const run = useAction();
  const { busy, run: runBusy } = useBusyAction();
  const asked = useRef(false);

  useEffect(() => {
    // One key per visit: each call makes a new one and the server binds only the latest.
    if (asked.current) return;
    asked.current = true;
    void run(async () => {
      const data = await api.command('/api/admin/auth/authenticator', {}, adminAuthenticatorDataSchema);
      setKey({ secret: data.secret, qr: await QRCode.toDataURL(data.otpauthUrl, { margin: 1, width: 200 }) });
    });
  }, [api, run]);

  const submit = async ({ googleCode }: { googleCode: string }) => {
    const done = await runBusy(
      () => api.command('/api/admin/auth/bind-authenticator', { googleCode }, doneDataSchema),
      form,
    );
    if (done) await refreshMe();
  };

  return (
    <SetupFrame>
      <Page title={t('authenticator.title')}>
        <Typography.Paragraph>{t('authenticator.intro')}</Typography.Paragraph>
        {key ? (
          <>
            <img
              className="console-qr"
              src={key.qr}
              alt={t('authenticator.qr_alt')}
              width={200}
              height={200}
            />
            <Typography.Paragraph>
              {t('authenticator.secret')}:{' '}
              <Typography.Text code copyable={{ text: key.secret, tooltips: [t('authenticator.copy')] }}>
                <span data-testid="authenticator-secret">{key.secret}</span>
              </Typography.Text>
            </Typography.Paragraph>
          </>
        ) : null}
        <Form form={form} name="bind" layout="vertical" onFinish={submit} requiredMark={false}>
          <GoogleCodeField />
          <Button type="primary" htmlType="submit" loading={busy} disabled={!key} block>
            {t('authenticator.submit')}
          </Button>
        </Form>
      </Page>
    </SetupFrame>
  );
}
