/**
 * The words for what is wrong with a typed amount as to form, the same on every money page that
 * checks it: required, not a number, too many decimals, not above 0. Each page's namespace holds
 * its own `amount_not_number`, `amount_decimals` and `amount_not_positive`.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export type AmountFormProblem =
  { key: 'required' } | { key: 'not_number' } | { key: 'decimals' } | { key: 'not_positive' };

export function useAmountFormText(namespace: 'hosting' | 'withdraw') {
  const { t } = useTranslation();
  return useCallback(
    (problem: AmountFormProblem): string =>
      problem.key === 'required'
        ? t('server.field_required', { field: t('field.amount') })
        : t(`${namespace}.amount_${problem.key}`),
    [t, namespace],
  );
}
