/**
 * Operators (superadmin): the list, a new operator with a role (its one-time password shown once),
 * disable, reset a password; each behind a dialog that states its effect.
 */
import { Alert, Button, Input, Modal, Select, Space, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import {
  createdOperatorDataSchema,
  operatorListDataSchema,
  operatorSchema,
  OPERATOR_ROLES,
  type Operator,
  type OperatorRole,
} from '../../contract/api/admin.js';
import { useConsole } from '../app/context.js';
import { RowButton } from '../ui/list-page.js';
import { useI18n } from '../i18n/i18n.js';
import { useConfirm } from '../ui/confirm.js';
import { FormDialog } from '../ui/form-dialog.js';
import { formatTime } from '../ui/format.js';
import { Page } from '../ui/page.js';
import { useAction } from '../ui/use-action.js';
import { StatusTag } from '../ui/status-tag.js';
import { ConsoleTable } from '../ui/console-table.js';
import { Field, InputField } from '../ui/field.js';

interface CreateForm {
  email: string;
  role: OperatorRole;
  password?: string;
}

export function OperatorsPage() {
  const { t } = useI18n();
  const { api, me } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const [operators, setOperators] = useState<Operator[]>([]);
  const [loading, setLoading] = useState(true);
  const [creating, setCreating] = useState(false);
  const [oneTime, setOneTime] = useState<{ email: string; password: string } | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    const list = await run(() => api.read('/api/admin/operator/list', {}, operatorListDataSchema));
    setLoading(false);
    if (list) setOperators(list.items);
  }, [api, run]);
  useEffect(() => {
    void load();
  }, [load]);

  const showOnce = (created: { email: string; initialPassword: string | null }) => {
    if (created.initialPassword) setOneTime({ email: created.email, password: created.initialPassword });
  };
  const create = async ({ email, role, password }: CreateForm) => {
    const params = password ? { email, role, password } : { email, role };
    const created = await run(() =>
      api.command('/api/admin/operator/create', params, createdOperatorDataSchema),
    );
    if (!created) return false;
    showOnce(created);
    await load();
    return true;
  };
  const disable = (operator: Operator) =>
    confirm(t('operators.confirm_disable', { email: operator.email }), async () => {
      if (
        await run(() =>
          api.command('/api/admin/operator/disable', { operatorId: operator.id }, operatorSchema),
        )
      )
        await load();
    });
  const reset = (operator: Operator) =>
    confirm(t('operators.confirm_reset', { email: operator.email }), async () => {
      const done = await run(() =>
        api.command(
          '/api/admin/operator/reset-password',
          { operatorId: operator.id },
          createdOperatorDataSchema,
        ),
      );
      if (done) {
        showOnce(done);
        await load();
      }
    });

  return (
    <Page
      title={t('operators.title')}
      actions={
        <Button type="primary" onClick={() => setCreating(true)}>
          {t('operators.create')}
        </Button>
      }
    >
      <ConsoleTable<Operator>
        label={t('operators.title')}
        rowKey="id"
        loading={loading}
        dataSource={operators}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          {
            title: t('field.email'),
            dataIndex: 'email',
            render: (email: string) => <span className="console-break">{email}</span>,
          },
          { title: t('field.role'), dataIndex: 'role', render: (role: OperatorRole) => t(`role.${role}`) },
          {
            title: t('operators.state'),
            key: 'state',
            render: (_value, operator) =>
              operator.disabled ? (
                <StatusTag tone="plain">{t('operators.disabled')}</StatusTag>
              ) : operator.mustChangePassword || !operator.authenticatorBound ? (
                <StatusTag tone="warn">{t('operators.setup_pending')}</StatusTag>
              ) : (
                <StatusTag tone="ok">{t('operators.active')}</StatusTag>
              ),
          },
          { title: t('common.created'), dataIndex: 'createdAt', render: formatTime },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_value, operator) =>
              operator.disabled || operator.id === me.operatorId ? null : (
                <Space wrap>
                  <RowButton
                    label={t('operators.reset_password')}
                    row={operator.email}
                    onClick={() => reset(operator)}
                  />
                  <RowButton
                    label={t('operators.disable')}
                    row={operator.email}
                    tone="danger"
                    onClick={() => disable(operator)}
                  />
                </Space>
              ),
          },
        ]}
      />
      <FormDialog<CreateForm>
        open={creating}
        name="operator-create"
        title={t('operators.create')}
        initialValues={{ role: 'support' }}
        effect={(values) =>
          t('operators.confirm_create', {
            email: values.email || '…',
            role: t(`role.${values.role ?? 'support'}`),
          })
        }
        onClose={() => setCreating(false)}
        onSubmit={create}
      >
        <InputField label="field.email" name="email" required type="email" autoComplete="off" />
        <Field label="field.role" name="role">
          <Select<OperatorRole>
            options={OPERATOR_ROLES.map((role) => ({ value: role, label: t(`role.${role}`) }))}
          />
        </Field>
        <Field label="field.initialPassword" name="password">
          <Input.Password autoComplete="new-password" />
        </Field>
      </FormDialog>
      <Modal
        open={oneTime !== null}
        title={t('operators.password_once_title')}
        onCancel={() => setOneTime(null)}
        footer={<Button onClick={() => setOneTime(null)}>{t('common.close')}</Button>}
      >
        {oneTime ? (
          <>
            <Alert type="warning" showIcon title={t('operators.password_once', { email: oneTime.email })} />
            <Typography.Paragraph className="console-more">
              <Typography.Text code copyable data-testid="one-time-password">
                {oneTime.password}
              </Typography.Text>
            </Typography.Paragraph>
          </>
        ) : null}
      </Modal>
    </Page>
  );
}
