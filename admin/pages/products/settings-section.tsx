/** The platform settings: the RAB price (each change a new price version) and the newcomer incentive. */
import { Button, Descriptions, Input } from 'antd';
import { useState } from 'react';
import { platformSettingsSchema, type PlatformSettings } from '../../../contract/api/admin.js';
import { useConsole } from '../../app/context.js';
import { useI18n } from '../../i18n/i18n.js';
import { Field } from '../../ui/field.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { useAction } from '../../ui/use-action.js';
import { useLoaded } from './use-loaded.js';

export function SettingsSection() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const settings = useLoaded('/api/admin/settings', platformSettingsSchema);
  const [editing, setEditing] = useState(false);
  const current = settings.data;
  const update = async (values: Partial<PlatformSettings>) => {
    const params = Object.fromEntries(Object.entries(values).filter(([, value]) => Boolean(value)));
    if (!(await run(() => api.command('/api/admin/settings/update', params, platformSettingsSchema))))
      return false;
    await settings.reload();
    return true;
  };
  if (!current) return null;
  return (
    <>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('products.rab_price')}>
          {current.rabPriceUsdt} USDT ({t('products.version')} {current.rabPriceVersion ?? t('common.none')})
        </Descriptions.Item>
        <Descriptions.Item label={t('products.newcomer_incentive')}>
          {current.newcomerIncentive} USDT
        </Descriptions.Item>
      </Descriptions>
      <div className="console-more">
        <Button type="primary" onClick={() => setEditing(true)}>
          {t('products.settings_update')}
        </Button>
      </div>
      <FormDialog<Partial<PlatformSettings>>
        open={editing}
        name="settings"
        title={t('products.settings_update')}
        initialValues={{ rabPriceUsdt: current.rabPriceUsdt, newcomerIncentive: current.newcomerIncentive }}
        effect={(values) =>
          t('products.confirm_settings', {
            price: values.rabPriceUsdt || current.rabPriceUsdt,
            incentive: values.newcomerIncentive || current.newcomerIncentive,
          })
        }
        onClose={() => setEditing(false)}
        onSubmit={update}
      >
        <Field label="products.rab_price" name="rabPriceUsdt">
          <Input inputMode="decimal" maxLength={40} />
        </Field>
        <Field label="products.newcomer_incentive" name="newcomerIncentive">
          <Input inputMode="decimal" maxLength={40} />
        </Field>
      </FormDialog>
    </>
  );
}
