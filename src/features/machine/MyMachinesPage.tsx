/**
 * My machines (pages/blance_record/blance_record10): the account's holdings from the
 * synced `owned_machines`, newest first, each with its hash power, status, days left of its term
 * and what it earned, readable offline with the age of the data.
 */
import { useTranslation } from 'react-i18next';
import { StackSection } from '../../ui/Card.js';
import type { OwnedMachineRecord } from '../../../contract/api/machine.js';
import { ROUTES } from '../../app/paths.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { DateTime } from '../../ui/DateTime.js';
import { perAccountPage } from '../account/PerAccount.js';
import { MachineLinks, MiningSummary } from './machine-parts.js';
import { acquisitionOf, nameIn, termPercent } from './machine-view.js';
import { useHoldings, usePullOnOpen } from './use-machines.js';
import { GridFigure } from '../../ui/Figure.js';
import './machine.css';

export default perAccountPage(MyMachines);

function MyMachines({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const holdings = useHoldings(active);
  usePullOnOpen();
  return (
    <div className="page-padding stack">
      <MiningSummary active={active} />
      <StackSection id="machine-holdings" title={t('machine.holdings_title')}>
        {holdings !== undefined && holdings.length === 0 && (
          <p className="card muted">{t('machine.holdings_empty')}</p>
        )}
        {holdings !== undefined && holdings.length > 0 && (
          <ul className="machine-list" aria-labelledby="machine-holdings">
            {holdings.map((holding) => (
              <Holding key={holding.id} holding={holding} />
            ))}
          </ul>
        )}
      </StackSection>
      <MachineLinks except={ROUTES.myMachines} />
    </div>
  );
}

function Holding({ holding }: { holding: OwnedMachineRecord }) {
  const { t, i18n } = useTranslation();
  const name = nameIn(holding.names, i18n.language);
  const percent = termPercent(holding);
  return (
    <li className="card machine">
      <div className="machine__head">
        <h3 className="machine__name">{t('machine.holding_label', { name, id: holding.id })}</h3>
        <span className={`badge ${holding.status === 'active' ? 'machine-badge--on' : 'badge--muted'}`}>
          {t(`machine.status_${holding.status}`)}
        </span>
      </div>
      <p className="muted">{t(`machine.acquired_${acquisitionOf(holding)}`, { count: holding.quantity })}</p>
      <div
        className="machine__progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={t('machine.progress_label', { name })}
      >
        <div className="machine__progress-bar" style={{ width: `${percent}%` }} />
      </div>
      <p className="machine__days">
        {t('machine.days_left', { count: holding.daysLeft, days: holding.days })}
      </p>
      <dl className="figures machine__figures">
        <GridFigure label={t('machine.hash_power')}>{holding.totalHashPower} T</GridFigure>
        <GridFigure label={t('machine.output_per_day')}>{holding.holdingDailyOutput} USDT</GridFigure>
        <GridFigure label={t('machine.earned')}>{holding.earned} USDT</GridFigure>
        <GridFigure label={t('machine.paid')}>
          {holding.payWith === 'ticket'
            ? t('machine.tickets_count', { count: holding.tickets })
            : `${holding.price} USDT`}
        </GridFigure>
        <GridFigure label={t('machine.started')}>
          <DateTime at={holding.startAt} style="short" />
        </GridFigure>
        <GridFigure label={t('machine.ends')}>
          <DateTime at={holding.endAt} style="short" />
        </GridFigure>
      </dl>
    </li>
  );
}
