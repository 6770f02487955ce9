/** Pieces the Hosting tab's parts share: a line of figures, and an amount's problem in words. */
import { useTranslation } from 'react-i18next';
import type { AmountProblem } from './hosting-view.js';

/** An amount problem in the user's language. */
export function useAmountProblemText() {
  const { t } = useTranslation();
  return (problem: AmountProblem): string => {
    switch (problem.key) {
      case 'required':
        return t('server.field_required', { field: t('field.amount') });
      case 'not_number':
        return t('hosting.amount_not_number');
      case 'decimals':
        return t('hosting.amount_decimals');
      case 'not_positive':
        return t('hosting.amount_not_positive');
      case 'below_minimum':
      case 'above_maximum':
        return t('hosting.amount_range', { minimum: problem.minimum, maximum: problem.maximum });
    }
  };
}

export { Figure } from '../../ui/Figure.js';
