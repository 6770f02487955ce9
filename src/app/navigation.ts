/** Navigation that honours the route table: a page not built yet shows "not yet open" (spec section 2). */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { toast } from '../ui/toast.js';
import { routeOf } from './routes.js';

export function useGo() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  return useCallback(
    (path: string, options?: { replace?: boolean; state?: unknown }) => {
      if (!routeOf(path)?.page) {
        toast(t('common.not_yet_open'));
        return;
      }
      navigate(path, options);
    },
    [navigate, t],
  );
}
