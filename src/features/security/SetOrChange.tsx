/**
 * The frame of a security page that sets something the first time and changes it after (the
 * trade password, the authenticator): the loading line until the profile is read, then one form.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { UserInfo } from '../../../contract/api/user.js';
import { ROUTES } from '../../app/paths.js';
import { useUserInfo } from './use-user-info.js';

/** `change` when `isSet` says the user has it already, else `set`; either goes back to Settings when done. */
export function SetOrChange({
  isSet,
  set,
  change,
}: {
  isSet: (user: UserInfo) => boolean;
  set: (done: () => void) => ReactNode;
  change: (user: UserInfo, done: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useUserInfo();
  const done = () => navigate(ROUTES.settings, { replace: true });
  if (user === null) return <p className="hint page-padding">{t('common.loading')}</p>;
  return isSet(user) ? change(user, done) : set(done);
}
