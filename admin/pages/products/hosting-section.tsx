/** Hosting products: add, edit (orders already made keep their terms), disable. */
import { Input, Radio } from 'antd';
import {
  adminHostingProductListDataSchema,
  adminHostingProductSchema,
  HOSTING_PAYOUTS,
  type AdminHostingProduct,
} from '../../../contract/api/hosting.js';
import { useI18n } from '../../i18n/i18n.js';
import { Field } from '../../ui/field.js';
import { CatalogueSection, nameOf, type CatalogueForm } from './catalogue.js';

interface HostingForm extends CatalogueForm {
  days?: string;
  dailyRate?: string;
  minimum?: string;
  maximum?: string;
  payout?: AdminHostingProduct['payout'];
  earlyExit?: boolean;
  penaltyRate?: string;
}

export function HostingSection() {
  const { t, locale } = useI18n();
  return (
    <CatalogueSection<AdminHostingProduct, HostingForm>
      kind="hosting"
      paths={{
        list: '/api/admin/hosting/product/list',
        add: '/api/admin/hosting/product/add',
        update: '/api/admin/hosting/product/update',
        disable: '/api/admin/hosting/product/disable',
      }}
      listSchema={adminHostingProductListDataSchema}
      itemSchema={adminHostingProductSchema}
      termsOf={(item) =>
        t('products.hosting_terms', {
          rate: item.dailyRate,
          minimum: item.minimum,
          maximum: item.maximum,
          payout: t(`products.payout.${item.payout}`),
        })
      }
      valuesOf={(item) => ({
        days: String(item.days),
        dailyRate: item.dailyRate,
        minimum: item.minimum,
        maximum: item.maximum,
        payout: item.payout,
        earlyExit: item.earlyExit,
        penaltyRate: item.penaltyRate,
      })}
      effectOf={(values, item) => {
        const vars = {
          name: values.name?.['zh-Hans'] || values.name?.en || (item ? nameOf(item, locale) : '…'),
          days: values.days || '…',
          rate: values.dailyRate || '…',
          minimum: values.minimum || '…',
          maximum: values.maximum || '…',
          payout: values.payout ? t(`products.payout.${values.payout}`) : '…',
        };
        return t(item ? 'products.confirm_hosting_edit' : 'products.confirm_hosting_add', vars);
      }}
      fields={(adding) => (
        <>
          <Field label="products.term_days" name="days" required={adding}>
            <Input inputMode="numeric" maxLength={5} />
          </Field>
          <Field label="products.daily_rate" name="dailyRate" required={adding}>
            <Input inputMode="decimal" maxLength={20} />
          </Field>
          <Field label="products.minimum" name="minimum" required={adding}>
            <Input inputMode="decimal" maxLength={40} />
          </Field>
          <Field label="products.maximum" name="maximum" required={adding}>
            <Input inputMode="decimal" maxLength={40} />
          </Field>
          <Field label="products.payout" name="payout" required={adding}>
            <Radio.Group
              options={HOSTING_PAYOUTS.map((value) => ({ value, label: t(`products.payout.${value}`) }))}
            />
          </Field>
          <Field label="products.early_exit" name="earlyExit" required={adding}>
            <Radio.Group
              options={[
                { value: true, label: t('products.early_exit.yes') },
                { value: false, label: t('products.early_exit.no') },
              ]}
            />
          </Field>
          <Field label="products.penalty_rate" name="penaltyRate">
            <Input inputMode="decimal" maxLength={20} />
          </Field>
        </>
      )}
    />
  );
}
