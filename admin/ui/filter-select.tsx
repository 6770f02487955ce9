/** One labelled choice of a list screen's filter bar (inside its inline `Form`): the value filters the list. */
import { Form, Select } from 'antd';
import { useI18n } from '../i18n/i18n.js';

export function FilterSelect<T extends string>({
  label,
  name,
  value,
  onChange,
  options,
  withAll = false,
}: {
  label: string;
  name: string;
  value: T;
  onChange(value: T): void;
  options: Array<{ value: T; label: string }>;
  /** Leads the options with "All" (the value `all`: the list unfiltered). */
  withAll?: boolean;
}) {
  const { t } = useI18n();
  const all = { value: 'all' as T, label: t('common.all') };
  return (
    <Form.Item label={label} name={name} initialValue={value}>
      <Select<T>
        className="console-select"
        onChange={onChange}
        options={withAll ? [all, ...options] : options}
      />
    </Form.Item>
  );
}

/** The filter bar's Status choice (the list's `status` parameter). */
export function StatusFilter<T extends string>(props: {
  value: T;
  onChange(value: T): void;
  options: Array<{ value: T; label: string }>;
  withAll?: boolean;
}) {
  const { t } = useI18n();
  return <FilterSelect<T> label={t('common.status')} name="status" {...props} />;
}
