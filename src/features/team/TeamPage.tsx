/**
 * The Team tab (pages/blance_record/blance_record6): the user's level and what the next
 * one still needs; the team's figures with small-area performance explained; the first and second
 * generation; the team income lines (promotion and management, each naming the member and
 * generation it was paid on); the levels; and links to the share poster and the mining machines.
 * The team's answers are kept on the device by the worker and the income lines are synced, so the
 * tab reads offline with the answers' age.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LevelConfigData, TeamMember, TeamMembersData } from '../../../contract/api/team.js';
import { MIN_VALID_HOSTING_USD } from '../../../contract/constants.js';
import { ROUTES } from '../../app/paths.js';
import { useSession } from '../../../client-db/use-session.js';
import { AsOf } from '../../ui/AsOf.js';
import { formatTime } from '../../ui/DateTime.js';
import { LinkList } from '../../ui/LinkList.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { toast } from '../../ui/toast.js';
import type { TeamCached } from '../../../client-db/caches/team.js';
import {
  progressOf,
  smallAreaSum,
  teamIncomeOf,
  type RequirementView,
  type TeamIncomeView,
} from './team-view.js';
import { percentOf } from '../../ui/amounts.js';
import {
  useMainAccountId,
  useMorePages,
  useTeamAnswers,
  useTeamIncome,
  type TeamAnswers,
  type TeamState,
} from './use-team.js';
import './team.css';
import { AccentCard, CardSection } from '../../ui/Card.js';
import { Figure } from '../../ui/Figure.js';
import { MoneyLine } from '../../ui/MoneyLine.js';
import { RecordsSection, type RecordsList } from '../../ui/RecordsSection.js';
import { useRecordsList } from '../account/account-data.js';

/** The share poster and the mining machines are reached from the Team tab. */
const TEAM_LINKS = [
  ['team.share', ROUTES.sharePoster],
  ['machine.title', ROUTES.machines],
] as const;
const INCOME: RecordsList = {
  title: 'team.income_title',
  empty: 'team.income_empty',
  more: 'team.income_more',
  collections: ['income'],
};

export default function TeamPage() {
  const session = useSession();
  if (!session) return null;
  return <Team userId={session.userId} />;
}

function Team({ userId }: { userId: string }) {
  const { t, i18n } = useTranslation();
  const online = useLink() === 'online';
  const { answers, state } = useTeamAnswers(userId, online, i18n.language);
  return (
    <div className="page-padding stack team-page">
      <LevelCard answers={answers} state={state} />
      <FiguresCard answers={answers} />
      <Members answers={answers} online={online} />
      <TeamIncome userId={userId} />
      <LevelsCard levels={answers?.levels ?? null} />
      <LinkList entries={TEAM_LINKS} />
      {answers !== undefined && answers.info === null && state !== 'loading' && (
        <p className="card muted">{t('team.never')}</p>
      )}
    </div>
  );
}

/** "As of" the answer's time, with a note when the server could not be reached. */
function Freshness({ cached, state }: { cached: TeamCached<'info'> | null | undefined; state: TeamState }) {
  const { t } = useTranslation();
  if (!cached) return null;
  return (
    <div className="team-as-of">
      <AsOf syncedAt={cached.fetchedAt} />
      {state === 'saved' && <p className="team-note">{t('team.saved')}</p>}
    </div>
  );
}

function LevelCard({ answers, state }: { answers: TeamAnswers | undefined; state: TeamState }) {
  const { t } = useTranslation();
  const mine = answers?.['my-level']?.data ?? null;
  const progress = progressOf(mine);
  return (
    <AccentCard id="team-level" title={t('team.level_title')}>
      <p className="card__figure team-level">
        {mine === null ? '…' : mine.level === 0 ? t('team.level_none') : mine.levelName}
      </p>
      {mine !== null && progress === null && <p className="team-line">{t('team.top_level')}</p>}
      {mine?.next && progress && (
        <>
          <h3 className="team-next">{t('team.next_title', { name: mine.next.name })}</h3>
          <ul className="team-progress">
            {progress.map((row) => (
              <Requirement key={row.key} row={row} />
            ))}
          </ul>
        </>
      )}
      {mine?.lastDay && (
        <p className="team-line">
          {mine.lastDay.level === 0
            ? t('team.paid_at_none', { day: mine.lastDay.day })
            : t('team.paid_at', {
                day: mine.lastDay.day,
                name:
                  answers?.levels?.data.levels.find((level) => level.level === mine.lastDay?.level)?.name ??
                  String(mine.lastDay.level),
              })}
        </p>
      )}
      <Freshness cached={answers?.info} state={state} />
    </AccentCard>
  );
}

const REQUIREMENT_KEYS = {
  own: 'team.req_own',
  direct: 'team.req_direct',
  small: 'team.req_small',
} as const;

function Requirement({ row }: { row: RequirementView }) {
  const { t } = useTranslation();
  const unit = row.key === 'direct' ? '' : ' USDT';
  const label = t(REQUIREMENT_KEYS[row.key]);
  return (
    <li className="team-requirement">
      <span className="team-requirement__label">{label}</span>
      <span className="team-requirement__value">
        {row.met
          ? `✓ ${t('team.req_met')}`
          : t('team.req_progress', { have: `${row.have}${unit}`, need: `${row.need}${unit}` })}
      </span>
      <span
        className="team-bar"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={row.percent}
      >
        <span className="team-bar__fill" style={{ width: `${row.percent}%` }} />
      </span>
    </li>
  );
}

function FiguresCard({ answers }: { answers: TeamAnswers | undefined }) {
  const { t } = useTranslation();
  const info = answers?.info?.data ?? null;
  const usdt = (amount: string | undefined) => (amount === undefined ? '…' : `${amount} USDT`);
  const sum = info ? smallAreaSum(info) : null;
  return (
    <CardSection id="team-figures" title={t('team.figures_title')}>
      <dl className="figures team-figures">
        <Figure label={t('team.team_performance')} value={usdt(info?.teamPerformance)} />
        <Figure label={t('team.small_area')} value={usdt(info?.smallAreaPerformance)} />
        <Figure label={t('team.direct_performance')} value={usdt(info?.directPerformance)} />
        <Figure label={t('team.indirect_performance')} value={usdt(info?.indirectPerformance)} />
        <Figure
          label={t('team.direct_members')}
          value={
            info ? t('team.members_valid', { valid: info.directValidCount, total: info.directCount }) : '…'
          }
        />
        <Figure
          label={t('team.team_members')}
          value={info ? t('team.members_valid', { valid: info.teamValidCount, total: info.teamCount }) : '…'}
        />
        <Figure label={t('team.own_performance')} value={usdt(info?.ownPerformance)} />
      </dl>
      {sum && <p className="team-explain">{t('team.small_area_explained', sum)}</p>}
      <p className="team-explain muted">
        {t('team.valid_explained', { threshold: info?.validHostingThreshold ?? MIN_VALID_HOSTING_USD })}
      </p>
    </CardSection>
  );
}

function Members({ answers, online }: { answers: TeamAnswers | undefined; online: boolean }) {
  const { t } = useTranslation();
  const [generation, setGeneration] = useState<1 | 2>(1);
  const first = answers?.['members-1']?.data ?? null;
  const second = answers?.['members-2']?.data ?? null;
  const shown = generation === 1 ? first : second;
  return (
    <CardSection id="team-members" title={t('team.generations_title')}>
      <div className="team-switch" role="group" aria-labelledby="team-members">
        {([1, 2] as const).map((value) => {
          const count = (value === 1 ? first : second)?.count;
          return (
            <button
              key={value}
              type="button"
              className="team-switch__option"
              aria-pressed={generation === value}
              onClick={() => setGeneration(value)}
            >
              {t(value === 1 ? 'team.generation_1' : 'team.generation_2', { count: count ?? 0 })}
            </button>
          );
        })}
      </div>
      {shown === null ? (
        <p className="muted">{answers === undefined ? '…' : t('team.never')}</p>
      ) : (
        <GenerationList key={generation} page={shown} online={online} />
      )}
    </CardSection>
  );
}

function GenerationList({ page, online }: { page: TeamMembersData; online: boolean }) {
  const { t } = useTranslation();
  const generation = page.generation === 2 ? 2 : 1;
  const extra = useMorePages(generation, page.nextCursor);
  const [busy, setBusy] = useState(false);
  const members = [...page.items, ...extra.items];
  if (members.length === 0) return <p className="muted">{t('team.members_empty')}</p>;
  return (
    <>
      <p className="team-line">
        {t('team.generation_summary', {
          valid: page.validCount,
          total: page.count,
          amount: page.performance,
        })}
      </p>
      <ul className="row-list">
        {members.map((member) => (
          <MemberRow key={member.id} member={member} />
        ))}
      </ul>
      {extra.next !== null && (
        <button
          type="button"
          className="link-button records__more"
          disabled={busy}
          onClick={() => {
            if (!online) {
              toast(t('team.members_more_offline'));
              return;
            }
            setBusy(true);
            void extra.more().then((ok) => {
              setBusy(false);
              if (!ok) toast(t('team.members_more_offline'));
            });
          }}
        >
          {t('team.members_more')}
        </button>
      )}
    </>
  );
}

function MemberRow({ member }: { member: TeamMember }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="team-member">
      <img className="team-member__avatar" src={member.avatar} alt="" width="36" height="36" />
      <p className="team-member__name">{member.nickname}</p>
      <p className="team-member__performance">{member.performance} USDT</p>
      <p className="muted team-member__joined">
        {t('team.member_joined', { date: formatTime(member.joinedAt, i18n.language, 'date') })}
      </p>
      <span className={`badge ${member.valid ? 'badge--active' : 'badge--muted'} team-member__valid`}>
        {t(member.valid ? 'team.member_valid' : 'team.member_not_valid')}
      </span>
    </li>
  );
}

/** The main account's team income lines (its synced `income` collection), newest first. */
function TeamIncome({ userId }: { userId: string }) {
  const accountId = useMainAccountId(userId);
  const list = useRecordsList(accountId ? { userId, accountId } : null, INCOME);
  // One more than shown, to know whether there is more.
  const lines = useTeamIncome(userId, accountId ?? null, list.paging.shown + 1);
  return (
    <RecordsSection {...list} records={lines === undefined ? undefined : teamIncomeOf(lines)}>
      {(line) => <IncomeLine line={line} />}
    </RecordsSection>
  );
}

function IncomeLine({ line }: { line: TeamIncomeView }) {
  const { t } = useTranslation();
  return (
    <MoneyLine
      className="team-income"
      kind={t(line.type === 'promotion' ? 'team.type_promotion' : 'team.type_management')}
      amount={line.amount}
      unit="USDT"
      detail={[
        line.source
          ? t('team.income_line', {
              generation: t('team.generation_n', { n: line.source.generation }),
              member: line.source.nickname,
              base: line.source.base,
              percent: line.source.percent,
            })
          : null,
      ]}
      when={t('team.income_earned', { date: line.earningsDate })}
    />
  );
}

function LevelsCard({ levels }: { levels: TeamCached<'levels'> | null }) {
  const { t } = useTranslation();
  const config: LevelConfigData | null = levels?.data ?? null;
  if (config === null) return null;
  return (
    <CardSection id="team-levels" title={t('team.levels_title')}>
      <p className="team-explain">{t('team.rules', { depth: config.managementDepth })}</p>
      <ul className="row-list">
        {config.levels.map((level) => (
          <li key={level.level} className="team-level-row">
            <p className="team-level-row__name">{level.name}</p>
            <p className="muted">
              {t('team.level_requirements', {
                own: level.ownHosting,
                direct: level.directValidMembers,
                small: level.smallAreaPerformance,
              })}
            </p>
            <p className="muted">
              {t('team.level_rewards', {
                first: percentOf(level.promotionRate1) ?? level.promotionRate1,
                second: percentOf(level.promotionRate2) ?? level.promotionRate2,
                management: percentOf(level.managementRate) ?? level.managementRate,
              })}
            </p>
          </li>
        ))}
      </ul>
    </CardSection>
  );
}
