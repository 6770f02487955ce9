/** Pieces the Hosting tab's parts share: a line of figures, and an amount's problem in words. */
import { useTranslation } from 'react-i18next';
import { useAmountFormText } from '../../ui/amount-problem.js';
import type { AmountProblem } from './hosting-view.js';

/** An amount problem in the user's language. */
export function useAmountProblemText() {
  const { t } = useTranslation();
  const formText = useAmountFormText('hosting');
  return (problem: AmountProblem): string =>
    problem.key === 'below_minimum' || problem.key === 'above_maximum'
      ? t('hosting.amount_range', { minimum: problem.minimum, maximum: problem.maximum })
      : formText(problem);
}

export { Figure } from '../../ui/Figure.js';
