/** Income airdrops and ticket issues: an amount or a count to each of a list of accounts, with a reason. */
import { Button, Form, Input, InputNumber } from 'antd';
import { useState } from 'react';
import { airdropDataSchema } from '../../../contract/api/income.js';
import { ticketIssueDataSchema } from '../../../contract/api/machine.js';
import { useConsole } from '../../app/context.js';
import { useI18n } from '../../i18n/i18n.js';
import { Field, InputField } from '../../ui/field.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { useAction } from '../../ui/use-action.js';

interface GrantForm {
  accountIds: string;
  amount?: string;
  count?: number;
  reason: string;
}

export function GrantSection({ kind }: { kind: 'airdrop' | 'tickets' }) {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const [form] = Form.useForm<GrantForm>();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const airdrop = kind === 'airdrop';
  const grant = async (values: GrantForm) => {
    const result = await run(async () =>
      airdrop
        ? (
            await api.command(
              '/api/admin/income/airdrop',
              { accountIds: values.accountIds, amount: values.amount, reason: values.reason },
              airdropDataSchema,
            )
          ).total
        : String(
            (
              await api.command(
                '/api/admin/ticket/issue',
                { accountIds: values.accountIds, count: values.count, reason: values.reason },
                ticketIssueDataSchema,
              )
            ).total,
          ),
    );
    if (result === undefined) return false;
    setDone(t(airdrop ? 'products.airdrop_done' : 'products.tickets_done', { total: result }));
    form.resetFields();
    return true;
  };
  const effect = (values: Partial<GrantForm>) =>
    t(airdrop ? 'products.confirm_airdrop' : 'products.confirm_tickets', {
      accounts: values.accountIds || '…',
      amount: values.amount || '…',
      count: values.count ?? '…',
    });
  return (
    <>
      {done ? <p role="status">{done}</p> : null}
      <Button type="primary" onClick={() => setOpen(true)}>
        {t(airdrop ? 'products.airdrop' : 'products.tickets')}
      </Button>
      <FormDialog<GrantForm>
        open={open}
        name={kind}
        title={t(airdrop ? 'products.airdrop' : 'products.tickets')}
        effect={effect}
        onClose={() => setOpen(false)}
        onSubmit={grant}
      >
        <Field label="products.account_ids" name="accountIds" required>
          <Input.TextArea rows={2} />
        </Field>
        {airdrop ? (
          <InputField
            label="products.amount_each"
            name="amount"
            required
            inputMode="decimal"
            maxLength={40}
          />
        ) : (
          <Field label="products.count_each" name="count" required>
            <InputNumber min={1} precision={0} />
          </Field>
        )}
        <InputField label="field.reason" name="reason" required maxLength={200} />
      </FormDialog>
    </>
  );
}
