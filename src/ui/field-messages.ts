/** Turns a validation helper's message key into text, naming the field in the user's language. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export function useFieldMessage() {
  const { t } = useTranslation();
  return useCallback(
    (key: string | null, field: string): string | null =>
      // keys come from contract/validation.ts, which only returns keys of the server namespace
      key === null
        ? null
        : (t(key as 'server.field_required', {
            field: t(`field.${field}` as 'field.email'),
            max: 128,
          }) as string),
    [t],
  );
}

/** Maps each field's check result to its message; empty when everything passed. */
export function useChecks() {
  const message = useFieldMessage();
  return useCallback(
    <K extends string>(checks: Record<K, string | null>): Partial<Record<K, string>> => {
      const errors: Partial<Record<K, string>> = {};
      for (const field of Object.keys(checks) as K[]) {
        const text = message(checks[field], field);
        if (text) errors[field] = text;
      }
      return errors;
    },
    [message],
  );
}
