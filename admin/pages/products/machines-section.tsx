/** Machines: add, edit (holdings already made keep their terms), disable. */
import { Input } from 'antd';
import {
  adminMachineListDataSchema,
  adminMachineSchema,
  type AdminMachine,
} from '../../../contract/api/machine.js';
import { useI18n } from '../../i18n/i18n.js';
import { Field } from '../../ui/field.js';
import { CatalogueSection, nameOf, type CatalogueForm } from './catalogue.js';

interface MachineForm extends CatalogueForm {
  hashPower?: string;
  price?: string;
  ticketPrice?: string;
  days?: string;
  dailyOutput?: string;
  rentPrice?: string;
}

export function MachinesSection() {
  const { t, locale } = useI18n();
  return (
    <CatalogueSection<AdminMachine, MachineForm>
      kind="machines"
      paths={{
        list: '/api/admin/machine/list',
        add: '/api/admin/machine/add',
        update: '/api/admin/machine/update',
        disable: '/api/admin/machine/disable',
      }}
      listSchema={adminMachineListDataSchema}
      itemSchema={adminMachineSchema}
      termsOf={(item) =>
        t('products.machine_terms', {
          price: item.price,
          hashPower: item.hashPower,
          output: item.dailyOutput,
          tickets: item.ticketPrice,
          rent: item.rentPrice ?? '0',
        })
      }
      valuesOf={(item) => ({
        hashPower: item.hashPower,
        price: item.price,
        ticketPrice: String(item.ticketPrice),
        days: String(item.days),
        dailyOutput: item.dailyOutput,
        rentPrice: item.rentPrice ?? '0',
      })}
      effectOf={(values, item) => {
        const vars = {
          name: values.name?.['zh-Hans'] || values.name?.en || (item ? nameOf(item, locale) : '…'),
          hashPower: values.hashPower || '…',
          price: values.price || '…',
          days: values.days || '…',
          output: values.dailyOutput || '…',
        };
        return t(item ? 'products.confirm_machine_edit' : 'products.confirm_machine_add', vars);
      }}
      fields={(adding) => (
        <>
          <Field label="products.hash_power" name="hashPower" required={adding}>
            <Input inputMode="decimal" maxLength={24} />
          </Field>
          <Field label="products.price" name="price" required={adding}>
            <Input inputMode="decimal" maxLength={40} />
          </Field>
          <Field label="products.ticket_price" name="ticketPrice">
            <Input inputMode="numeric" maxLength={10} />
          </Field>
          <Field label="products.term_days" name="days" required={adding}>
            <Input inputMode="numeric" maxLength={10} />
          </Field>
          <Field label="products.daily_output" name="dailyOutput" required={adding}>
            <Input inputMode="decimal" maxLength={24} />
          </Field>
          <Field label="products.rent_price" name="rentPrice">
            <Input inputMode="decimal" maxLength={40} />
          </Field>
        </>
      )}
    />
  );
}
