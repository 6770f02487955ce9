/**
 * Proof of reserves (pages/reserves/reserves, from the Assets tab; docs/protocol.md §32): the
 * user's balance included in the latest snapshot and what share of what it owes the platform held;
 * the proof's path recomputed to the root on this device ("Verified on this device" or a clear
 * failure), each step on request; the proof downloaded exactly as the server gave it, for
 * `npm run verify-proof` or /reserves/verify.html; and what a proof reveals. The proof is kept on
 * the device by the worker, so the page shows and verifies it offline with its age.
 */
import { Button } from 'antd-mobile';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReservesProof } from '../../../contract/api/reserves.js';
import type { ReservesProofRecord } from '../../../client-db/schema.js';
import { useSession } from '../../../client-db/use-session.js';
import { AsOf } from '../../ui/AsOf.js';
import { AccentCard, CardSection } from '../../ui/Card.js';
import { formatTime } from '../../ui/DateTime.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { amountOfUnits, proofFile, sentenceOf, stepsOf } from './reserves-view.js';
import { useReservesProof, useVerification, type ReservesState, type Verification } from './use-reserves.js';
import './reserves.css';

/** The static verifier (public/reserves/), which needs no app code and works offline. */
const VERIFY_PAGE = '/reserves/verify.html';

export default function ReservesPage() {
  const session = useSession();
  if (!session) return null;
  return <Reserves userId={session.userId} />;
}

function Reserves({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const online = useLink() === 'online';
  const { record, state } = useReservesProof(userId, online);
  return (
    <div className="page-padding stack reserves-page">
      {record ? (
        <Proof record={record} state={state} />
      ) : (
        <p className="card muted" aria-busy={record === undefined || state === 'loading'}>
          {record === undefined || state === 'loading'
            ? t('reserves.loading')
            : state === 'none'
              ? t('reserves.none')
              : t('reserves.never')}
        </p>
      )}
      <CardSection id="reserves-about" title={t('reserves.about_title')}>
        <p>{t('reserves.about')}</p>
        <p>
          <a href={VERIFY_PAGE} target="_blank" rel="noopener">
            {t('reserves.verify_page')}
          </a>
        </p>
      </CardSection>
    </div>
  );
}

function Proof({ record, state }: { record: ReservesProofRecord; state: ReservesState }) {
  const { t, i18n } = useTranslation();
  const verification = useVerification(record.proof);
  const [showSteps, setShowSteps] = useState(false);
  const stepsId = useId();
  const view = sentenceOf(record);
  const values = {
    usdt: view.usdt,
    rab: view.rab,
    time: formatTime(view.at, i18n.language, 'medium'),
  };
  return (
    <>
      <AccentCard id="reserves-yours" title={t('reserves.yours')}>
        <p className="reserves-sentence">
          {view.held.kind === 'percent'
            ? t('reserves.sentence', { ...values, percent: view.held.percent })
            : view.held.kind === 'unread'
              ? t('reserves.sentence_unread', values)
              : t('reserves.sentence_unknown', values)}
        </p>
        <VerificationLine verification={verification} />
      </AccentCard>
      <div className="reserves-as-of">
        <AsOf syncedAt={record.fetchedAt} />
        {state === 'saved' && <p className="reserves-note">{t('reserves.saved')}</p>}
        {state === 'none' && <p className="reserves-note">{t('reserves.none_now')}</p>}
      </div>
      <section className="card" aria-labelledby="reserves-check">
        <h2 id="reserves-check" className="card__title">
          {t('reserves.check_title')}
        </h2>
        <div className="reserves-actions">
          <Button
            size="small"
            aria-expanded={showSteps}
            aria-controls={stepsId}
            onClick={() => setShowSteps((shown) => !shown)}
          >
            {showSteps ? t('reserves.hide_steps') : t('reserves.show_steps')}
          </Button>
          <Button size="small" color="primary" onClick={() => download(record.proof)}>
            {t('reserves.download')}
          </Button>
        </div>
        <p className="muted reserves-hint">{t('reserves.download_hint')}</p>
        <div id={stepsId} hidden={!showSteps}>
          {showSteps && <Steps proof={record.proof} verification={verification} />}
        </div>
      </section>
    </>
  );
}

function VerificationLine({ verification }: { verification: Verification }) {
  const { t } = useTranslation();
  const text =
    verification.kind === 'checking'
      ? t('reserves.checking')
      : verification.kind === 'verified'
        ? t('reserves.verified')
        : t('reserves.not_verified');
  return (
    <p role="status" className={`reserves-verdict reserves-verdict--${verification.kind}`}>
      {text}
    </p>
  );
}

function Steps({ proof, verification }: { proof: ReservesProof; verification: Verification }) {
  const { t } = useTranslation();
  if (verification.kind === 'checking') return <p className="muted">{t('reserves.checking')}</p>;
  const steps = stepsOf(verification.steps, proof);
  return (
    <>
      <ol className="reserves-steps">
        {steps.map((step) => (
          <li key={step.level}>
            <p className="reserves-steps__name">
              {step.level === 0 ? t('reserves.step_leaf') : t('reserves.step_level', { level: step.level })}
            </p>
            {step.sibling !== null && (
              <p className="reserves-steps__sibling">
                {t(step.sibling.side === 'left' ? 'reserves.sibling_left' : 'reserves.sibling_right', {
                  usdt: step.sibling.usdt,
                  rab: step.sibling.rab,
                })}{' '}
                <code>{step.sibling.hash}</code>
              </p>
            )}
            <p>
              {t('reserves.step_sums', { usdt: step.usdt, rab: step.rab })} <code>{step.hash}</code>
            </p>
          </li>
        ))}
      </ol>
      <p className="reserves-steps__root">
        {t('reserves.root', {
          usdt: amountOfUnits(proof.root.usdt),
          rab: amountOfUnits(proof.root.rab),
        })}{' '}
        <code>{proof.root.hash}</code>
      </p>
    </>
  );
}

/** Saves the proof exactly as the server gave it, as a JSON file (a Blob through an <a download>). */
function download(proof: ReservesProof): void {
  const { name, text } = proofFile(proof);
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the next turn; the address is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
