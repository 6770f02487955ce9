/** Hosting products: add, edit (orders already made keep their terms), disable. */
import { Radio } from 'antd';
import {
  adminHostingProductListDataSchema,
  adminHostingProductSchema,
  HOSTING_PAYOUTS,
  type AdminHostingProduct,
} from '../../../contract/api/hosting.js';
import { useI18n } from '../../i18n/i18n.js';
import { Field } from '../../ui/field.js';
import { CatalogueSection, TermInputs, type CatalogueForm, type TermInput } from './catalogue.js';

interface HostingForm extends CatalogueForm {
  days?: string;
  dailyRate?: string;
  minimum?: string;
  maximum?: string;
  payout?: AdminHostingProduct['payout'];
  earlyExit?: boolean;
  penaltyRate?: string;
}

/** The terms typed as numbers, before the payout and early-exit choices. */
const TERMS: readonly TermInput[] = [
  { name: 'days', label: 'products.term_days', inputMode: 'numeric', maxLength: 5 },
  { name: 'dailyRate', label: 'products.daily_rate', inputMode: 'decimal', maxLength: 20 },
  { name: 'minimum', label: 'products.minimum', inputMode: 'decimal', maxLength: 40 },
  { name: 'maximum', label: 'products.maximum', inputMode: 'decimal', maxLength: 40 },
];

/** The penalty for leaving early, after the choices (optional). */
const PENALTY: readonly TermInput[] = [
  {
    name: 'penaltyRate',
    label: 'products.penalty_rate',
    inputMode: 'decimal',
    maxLength: 20,
    optional: true,
  },
];

export function HostingSection() {
  const { t } = useI18n();
  return (
    <CatalogueSection<AdminHostingProduct, HostingForm>
      kind="hosting"
      route="/api/admin/hosting/product"
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
      effectOf={(values, name, item) =>
        t(item ? 'products.confirm_hosting_edit' : 'products.confirm_hosting_add', {
          name,
          days: values.days || '…',
          rate: values.dailyRate || '…',
          minimum: values.minimum || '…',
          maximum: values.maximum || '…',
          payout: values.payout ? t(`products.payout.${values.payout}`) : '…',
        })
      }
      fields={(adding) => (
        <>
          <TermInputs inputs={TERMS} adding={adding} />
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
          <TermInputs inputs={PENALTY} adding={adding} />
        </>
      )}
    />
  );
}
