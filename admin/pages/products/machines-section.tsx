/** Machines: add, edit (holdings already made keep their terms), disable. */
import {
  adminMachineListDataSchema,
  adminMachineSchema,
  type AdminMachine,
} from '../../../contract/api/machine.js';
import { useI18n } from '../../i18n/i18n.js';
import { CatalogueSection, TermInputs, type CatalogueForm, type TermInput } from './catalogue.js';

interface MachineForm extends CatalogueForm {
  hashPower?: string;
  price?: string;
  ticketPrice?: string;
  days?: string;
  dailyOutput?: string;
  rentPrice?: string;
}

/** A machine's terms, all typed as numbers. */
const TERMS: readonly TermInput[] = [
  { name: 'hashPower', label: 'products.hash_power', inputMode: 'decimal', maxLength: 24 },
  { name: 'price', label: 'products.price', inputMode: 'decimal', maxLength: 40 },
  {
    name: 'ticketPrice',
    label: 'products.ticket_price',
    inputMode: 'numeric',
    maxLength: 10,
    optional: true,
  },
  { name: 'days', label: 'products.term_days', inputMode: 'numeric', maxLength: 10 },
  { name: 'dailyOutput', label: 'products.daily_output', inputMode: 'decimal', maxLength: 24 },
  { name: 'rentPrice', label: 'products.rent_price', inputMode: 'decimal', maxLength: 40, optional: true },
];

export function MachinesSection() {
  const { t } = useI18n();
  return (
    <CatalogueSection<AdminMachine, MachineForm>
      kind="machines"
      route="/api/admin/machine"
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
      effectOf={(values, name, item) =>
        t(item ? 'products.confirm_machine_edit' : 'products.confirm_machine_add', {
          name,
          hashPower: values.hashPower || '…',
          price: values.price || '…',
          days: values.days || '…',
          output: values.dailyOutput || '…',
        })
      }
      fields={(adding) => <TermInputs inputs={TERMS} adding={adding} />}
    />
  );
}
