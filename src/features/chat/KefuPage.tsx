/**
 * pages/kefu/kefu, the support entry (docs/protocol.md §35): the support hours (in the support's
 * time zone, with whether someone is there now), the community links operators set (the spec's
 * community customer service: international, Asia-Pacific ...), and the way into the
 * conversation with the unread count. The info is kept by the worker, so the page opens offline
 * with what support last published. `?section=community` (Settings' community entry) brings the
 * links into view.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type { KeptChatInfo } from '../../../client-db/caches/chat.js';
import { useGo } from '../../app/navigation.js';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { AsOf } from '../../ui/AsOf.js';
import { CardSection } from '../../ui/Card.js';
import { hoursText } from './chat-view.js';
import { useUnreadCount } from './use-chat.js';
import './chat.css';

type InfoState =
  { kind: 'loading' } | { kind: 'shown'; kept: KeptChatInfo; cached: boolean } | { kind: 'none' };

/** The ISO weekdays (1 Monday .. 7 Sunday) as the language names them, in a short list. */
function daysText(days: readonly number[], language: string): string {
  const names = new Intl.DateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  const named = [...days].sort((a, b) => a - b).map((day) => names.format(Date.UTC(2024, 0, day)));
  return new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(named);
}

export default function KefuPage() {
  const { t, i18n } = useTranslation();
  const go = useGo();
  const location = useLocation();
  const unread = useUnreadCount();
  const [state, setState] = useState<InfoState>({ kind: 'loading' });
  const communities = useRef<HTMLElement>(null);

  useEffect(() => {
    let live = true;
    void send('chat-info').then((result) => {
      if (!live) return;
      if (result.kind === 'ok') setState({ kind: 'shown', kept: result.data, cached: false });
      else if (result.kind === 'cached') setState({ kind: 'shown', kept: result.data, cached: true });
      else setState({ kind: 'none' });
    });
    return () => {
      live = false;
    };
  }, []);

  const toCommunity = new URLSearchParams(location.search).get('section') === 'community';
  useEffect(() => {
    if (toCommunity && state.kind !== 'loading') communities.current?.scrollIntoView({ block: 'start' });
  }, [toCommunity, state.kind]);

  const info = state.kind === 'shown' ? state.kept.info : null;
  return (
    <div className="page-padding stack">
      <section className="card chat-entry" aria-labelledby="chat-entry-title">
        <h2 id="chat-entry-title" className="card__title">
          {t('chat.entry_title')}
        </h2>
        <p className="muted">{t('chat.entry_text')}</p>
        <button type="button" className="solid-button chat-entry__open" onClick={() => go(ROUTES.chatRoom)}>
          {t('chat.open_conversation')}
          {unread > 0 && (
            <span className="badge chat-badge" data-testid="chat-entry-unread">
              {t('chat.unread', { count: unread })}
            </span>
          )}
        </button>
      </section>

      <CardSection id="chat-hours" title={t('chat.hours_title')}>
        {state.kind === 'loading' && <p className="muted">{t('common.loading')}</p>}
        {state.kind === 'none' && <p className="muted">{t('chat.info_unavailable')}</p>}
        {info !== null && (
          <>
            <p className="chat-hours" data-testid="chat-hours">
              {t('chat.hours_line', {
                days: daysText(info.hours.days, i18n.language),
                hours: hoursText(info.hours),
                timezone: info.timezone,
              })}
            </p>
            <p>
              <span className={info.openNow ? 'badge chat-badge--open' : 'badge badge--muted'}>
                {info.openNow ? t('chat.open_now') : t('chat.closed_now')}
              </span>
            </p>
            {!info.openNow && <p className="muted">{t('chat.closed_hint')}</p>}
          </>
        )}
        {state.kind === 'shown' && state.cached && <AsOf syncedAt={state.kept.fetchedAt} />}
      </CardSection>

      <section className="card" aria-labelledby="chat-communities" ref={communities}>
        <h2 id="chat-communities" className="card__title">
          {t('chat.communities_title')}
        </h2>
        {info !== null && info.communities.length === 0 && (
          <p className="muted">{t('chat.communities_empty')}</p>
        )}
        {info !== null && info.communities.length > 0 && (
          <ul className="chat-communities">
            {info.communities.map((community) => (
              <li key={`${community.name}|${community.url}`}>
                <a href={community.url} target="_blank" rel="noopener noreferrer">
                  {community.name}
                  <span className="visually-hidden"> {t('chat.opens_new_tab')}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
        {info === null && state.kind !== 'loading' && <p className="muted">{t('chat.info_unavailable')}</p>}
      </section>
    </div>
  );
}
