/**
 * What the UI does with a worker outcome (spec section 8, CONTRACT.md): 401 relaunches at login
 * (the worker already cleared the token); 300, 4900, 4901 and 601 go to their pages after 1.5 s; any
 * other code shows the server's message as a 2000 ms toast (and beside the field it names, when
 * the form has one); a transport failure shows a toast.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { BodyCode } from '../../contract/codes.js';
import { SPECIAL_CODE_REDIRECT_MS } from '../../contract/constants.js';
import type { Outcome } from '../../sync/ports.js';
import { toast } from '../ui/toast.js';
import { ROUTES } from './paths.js';
import { useGo } from './navigation.js';

const REDIRECTS: Partial<Record<number, string>> = {
  [BodyCode.tradePasswordNotSet]: ROUTES.updatePassword2,
  [BodyCode.authenticatorNotBound]: ROUTES.updatePassword3,
  [BodyCode.noWithdrawalMethod]: ROUTES.withdraw2,
  [BodyCode.realNameRequired]: ROUTES.identity,
};

/** The page a body code sends the user to after 1.5 s (300, 4900, 4901, 601), or undefined. Pure. */
export function redirectFor(code: number): string | undefined {
  return REDIRECTS[code];
}

export interface FieldErrorSink {
  /** Fields the form shows errors beside; a refusal naming one of them is shown there too. */
  fields: readonly string[];
  show(field: string, message: string): void;
}

function fieldOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('field' in data)) return undefined;
  return typeof data.field === 'string' ? data.field : undefined;
}

/** Returns a handler that applies the body-code rules and tells whether the outcome was a success. */
export function useOutcome() {
  const navigate = useNavigate();
  const go = useGo();
  const { t } = useTranslation();
  return useCallback(
    <T>(outcome: Outcome<T>, sink?: FieldErrorSink): outcome is Extract<Outcome<T>, { kind: 'ok' }> => {
      if (outcome.kind === 'ok') return true;
      if (outcome.kind === 'transport') {
        toast(outcome.status === null ? t('errors.network') : t('errors.http', { status: outcome.status }));
        return false;
      }
      if (outcome.code === BodyCode.notLoggedIn) {
        toast(outcome.message);
        navigate(ROUTES.login, { replace: true });
        return false;
      }
      const redirect = redirectFor(outcome.code);
      if (redirect) {
        toast(outcome.message);
        setTimeout(() => go(redirect), SPECIAL_CODE_REDIRECT_MS);
        return false;
      }
      // The spec's toast always; a form also marks the field the refusal names.
      toast(outcome.message);
      const field = fieldOf(outcome.data);
      if (sink && field && sink.fields.includes(field)) sink.show(field, outcome.message);
      return false;
    },
    [navigate, go, t],
  );
}
