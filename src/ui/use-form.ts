/** Small form state: values, errors beside fields, the sink for the server's field refusals, and the submit plumbing. */
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import type { FieldErrorSink } from '../app/outcome.js';

export function useForm<K extends string>(initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const [busy, setBusy] = useState(false);
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

  /** The value, change handler and error of a Field or CodeField. */
  const bind = (field: K) => ({ value: values[field], onChange: set(field), error: errors[field] });

  /**
   * The form's onSubmit: shows validate's errors beside the fields and stops if there are any;
   * otherwise runs the submission with busy set, and clears busy when it settles, even if it throws
   * (the rejection still reaches the console as an unhandled one).
   */
  const submit =
    (
      validate: (values: Record<K, string>) => Partial<Record<K, string>>,
      run: (values: Record<K, string>) => Promise<void>,
    ) =>
    (event: FormEvent) => {
      event.preventDefault();
      const found = validate(values);
      setErrors(found);
      if (Object.keys(found).length > 0) return;
      setBusy(true);
      void run(values).finally(() => setBusy(false));
    };

  return { values, errors, setErrors, set, sink, busy, bind, submit };
}
