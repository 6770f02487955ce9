/** One labelled choice of a list screen's filter bar (inside its inline `Form`): the value filters the list. */
import { Form, Select } from 'antd';

export function FilterSelect<T extends string>({
  label,
  name,
  value,
  onChange,
  options,
}: {
  label: string;
  name: string;
  value: T;
  onChange(value: T): void;
  options: Array<{ value: T; label: string }>;
}) {
  return (
    <Form.Item label={label} name={name} initialValue={value}>
      <Select<T> className="console-select" onChange={onChange} options={options} />
    </Form.Item>
  );
}
