/**
 * The platform settings: the RAB price (each change a new price version, the recent ones listed)
 * and the newcomer incentive; beside them, read-only, the fees and limits the server runs with.
 */
import { Button, Descriptions } from 'antd';
import { useState } from 'react';
import {
  PLATFORM_LIMITS,
  platformLimitsDataSchema,
  platformSettingsSchema,
  type PlatformSettings,
} from '../../../contract/api/admin.js';
import { ConsoleTable } from '../../ui/console-table.js';
import { formatTime } from '../../ui/format.js';
import { useConsole } from '../../app/context.js';
import { useI18n } from '../../i18n/i18n.js';
import { InputField } from '../../ui/field.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { useAction } from '../../ui/use-action.js';
import { useLoaded } from './use-loaded.js';

export function SettingsSection() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const settings = useLoaded('/api/admin/settings', platformSettingsSchema);
  const overview = useLoaded('/api/admin/settings/limits', platformLimitsDataSchema);
  const [editing, setEditing] = useState(false);
  const current = settings.data;
  const update = async (values: Partial<PlatformSettings>) => {
    const params = Object.fromEntries(Object.entries(values).filter(([, value]) => Boolean(value)));
    if (!(await run(() => api.command('/api/admin/settings/update', params, platformSettingsSchema))))
      return false;
    await Promise.all([settings.reload(), overview.reload()]);
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
        <InputField label="products.rab_price" name="rabPriceUsdt" inputMode="decimal" maxLength={40} />
        <InputField
          label="products.newcomer_incentive"
          name="newcomerIncentive"
          inputMode="decimal"
          maxLength={40}
        />
      </FormDialog>
      {overview.data ? (
        <>
          <h2 className="console-section">{t('products.price_versions')}</h2>
          {overview.data.rabPriceVersions.length === 0 ? (
            <p>{t('products.price_never_set')}</p>
          ) : (
            <ConsoleTable
              label={t('products.price_versions')}
              rowKey="version"
              dataSource={overview.data.rabPriceVersions}
              columns={[
                { title: t('products.version'), dataIndex: 'version', key: 'version' },
                {
                  title: t('products.rab_price'),
                  key: 'price',
                  render: (_value, row) => `${row.rabPriceUsdt} USDT`,
                },
                { title: t('products.price_set_at'), key: 'at', render: (_value, row) => formatTime(row.at) },
              ]}
            />
          )}
          <h2 className="console-section">{t('products.limits')}</h2>
          <p>{t('products.limits_hint')}</p>
          <Descriptions column={1} bordered size="small">
            {PLATFORM_LIMITS.map((key) => (
              <Descriptions.Item key={key} label={t(`limits.${key}`)}>
                {overview.data?.limits[key]}
              </Descriptions.Item>
            ))}
          </Descriptions>
        </>
      ) : null}
    </>
  );
}
