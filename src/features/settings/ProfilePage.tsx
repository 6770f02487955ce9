/**
 * Nickname and avatar (pages/setting/setting1): the synced profile from `coffer-u{user}`, edited
 * through the outbox, so a change made offline is sent later. A change still waiting shows as
 * pending beside the synced value.
 */
import '../../ui/antd-render.js';
import { Button } from 'antd-mobile';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileRecord } from '../../../contract/api/content.js';
import { AVATAR_URLS, NICKNAME_MAX_LENGTH } from '../../../contract/constants.js';
import { useSession } from '../../../client-db/use-session.js';
import { userDatabase, useSyncedAt } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { Field } from '../../ui/Field.js';
import { toast } from '../../ui/toast.js';
import { useEnqueue } from '../outbox/use-enqueue.js';

const COLLECTIONS = ['profile'] as const;

interface Pending {
  nickname: string | null;
  avatar: string | null;
}

export default function ProfilePage() {
  const session = useSession();
  const userId = session?.userId ?? null;
  const db = userId === null ? null : userDatabase(userId);
  const profile = useLiveQuery(
    async () => (db === null || userId === null ? null : ((await db.profile.get(userId)) ?? null)),
    [db, userId],
  );
  // The newest pending value of each field, from the outbox.
  const pending = useLiveQuery(async (): Promise<Pending> => {
    const result: Pending = { nickname: null, avatar: null };
    if (db === null) return result;
    const rows = await db.outbox.where('state').anyOf('queued', 'sending').sortBy('seq');
    for (const row of rows) {
      if (row.kind === 'profile-nickname') result.nickname = row.params.nickname;
      if (row.kind === 'profile-avatar') result.avatar = row.params.avatar;
    }
    return result;
  }, [db]);
  const syncedAt = useSyncedAt(db, COLLECTIONS);
  if (profile === undefined || pending === undefined) return null;
  return (
    <div className="page-padding stack">
      <Current profile={profile} pending={pending} />
      <AsOf syncedAt={syncedAt} />
      <ProfileForm
        nickname={pending.nickname ?? profile?.nickname ?? ''}
        avatar={pending.avatar ?? profile?.avatar ?? AVATAR_URLS[0] ?? ''}
      />
    </div>
  );
}

function Current({ profile, pending }: { profile: ProfileRecord | null; pending: Pending }) {
  const { t } = useTranslation();
  return (
    <section className="card profile" aria-labelledby="profile-current">
      <img
        className="profile__avatar"
        src={profile?.avatar || AVATAR_URLS[0]}
        alt=""
        width="56"
        height="56"
      />
      <div>
        <h2 id="profile-current" className="card__title">
          {profile?.nickname ?? t('profile.not_synced')}
        </h2>
        {pending.nickname !== null && (
          <p className="muted">{t('profile.pending_nickname', { nickname: pending.nickname })}</p>
        )}
        {pending.avatar !== null && <p className="muted">{t('profile.pending_avatar')}</p>}
      </div>
    </section>
  );
}

/**
 * The form follows the synced (or pending) values until the user edits a field: an edit is kept
 * when the profile arrives or changes meanwhile (a first sync landing while the user types).
 */
function ProfileForm(props: { nickname: string; avatar: string }) {
  const { t } = useTranslation();
  const { busy, enqueue } = useEnqueue();
  const [editedNickname, setNickname] = useState<string | null>(null);
  const [editedAvatar, setAvatar] = useState<string | null>(null);
  const nickname = editedNickname ?? props.nickname;
  const avatar = editedAvatar ?? props.avatar;
  const [error, setError] = useState<string | undefined>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = nickname.trim();
    if (trimmed === '') return setError(t('server.field_required', { field: t('field.nickname') }));
    if (trimmed.length > NICKNAME_MAX_LENGTH)
      return setError(t('server.field_too_long', { field: t('field.nickname'), max: NICKNAME_MAX_LENGTH }));
    setError(undefined);
    const commands = [
      ...(trimmed !== props.nickname
        ? [{ kind: 'profile-nickname' as const, params: { nickname: trimmed } }]
        : []),
      ...(avatar !== props.avatar ? [{ kind: 'profile-avatar' as const, params: { avatar } }] : []),
    ];
    const refused = await enqueue(...commands);
    if (refused?.reason === 'invalid_input' && refused.field === 'nickname')
      setError(t('server.field_invalid', { field: t('field.nickname') }));
    if (refused) return;
    toast(t(commands.length === 0 ? 'profile.unchanged' : 'profile.queued'));
  };

  return (
    <form className="card form" onSubmit={(event) => void submit(event)} noValidate>
      <Field
        label={t('field.nickname')}
        value={nickname}
        onChange={setNickname}
        error={error}
        maxLength={NICKNAME_MAX_LENGTH}
        required
        autoComplete="nickname"
      />
      <fieldset className="avatar-picker">
        <legend className="field__label">{t('field.avatar')}</legend>
        <div className="avatar-picker__options">
          {AVATAR_URLS.map((url, index) => (
            <label key={url} className="avatar-picker__option">
              <input
                type="radio"
                name="avatar"
                value={url}
                checked={avatar === url}
                onChange={() => setAvatar(url)}
              />
              <img src={url} alt={t('profile.avatar_option', { number: index + 1 })} width="48" height="48" />
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" color="primary" block size="large" loading={busy}>
        {t('profile.save')}
      </Button>
    </form>
  );
}
