/** Navigation that honours the route table: a page not built yet shows "not yet open" (spec section 2). */
import { createContext, useCallback, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { toast } from '../ui/toast.js';

/**
 * Whether a path has a built page. The shell provides the route table's answer: pages use
 * useGo, and the route table imports the pages, so this module must not import the table.
 */
export const PageLookupContext = createContext<(path: string) => boolean>(() => true);

export function useGo() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const hasPage = useContext(PageLookupContext);
  return useCallback(
    (path: string, options?: { replace?: boolean; state?: unknown }) => {
      if (!hasPage(path)) {
        toast(t('common.not_yet_open'));
        return;
      }
      navigate(path, options);
    },
    [navigate, t, hasPage],
  );
}
