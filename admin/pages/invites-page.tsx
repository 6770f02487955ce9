/** Invite codes: a new reusable code for customers to register with. */
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { inviteDataSchema } from '../../contract/api/admin.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { useConfirm } from '../ui/confirm.js';
import { Page } from '../ui/page.js';
import { useAction } from '../ui/use-action.js';

export function InvitesPage() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const [codes, setCodes] = useState<string[]>([]);
  const create = () =>
    confirm(t('invites.confirm_create'), async () => {
      const invite = await run(() => api.command('/api/admin/invite/create', {}, inviteDataSchema));
      if (invite) setCodes((before) => [invite.code, ...before]);
    });
  return (
    <Page
      title={t('invites.title')}
      actions={
        <Button type="primary" onClick={create}>
          {t('invites.create')}
        </Button>
      }
    >
      <Typography.Paragraph>{t('invites.intro')}</Typography.Paragraph>
      {codes.map((code) => (
        <Typography.Paragraph key={code}>
          {t('invites.created')}:{' '}
          <Typography.Text code copyable>
            {code}
          </Typography.Text>
        </Typography.Paragraph>
      ))}
    </Page>
  );
}
