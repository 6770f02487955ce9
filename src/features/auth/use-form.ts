/** Small form state: values, errors beside fields, and the sink for the server's field refusals. */
import { useCallback, useMemo, useState } from 'react';
import type { FieldErrorSink } from '../../app/outcome.js';

export function useForm<K extends string>(initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const set = useCallback(
    (field: K) => (value: string) => {
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
    [],
  );
  const sink = useMemo<FieldErrorSink>(
    () => ({
      fields: Object.keys(initial),
      show: (field, message) => setErrors((current) => ({ ...current, [field]: message })),
    }),
    // the field names never change for a form
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  return { values, errors, setErrors, set, sink };
}
