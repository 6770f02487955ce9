/**
 * The share poster (pages/share_poster/share_poster): the user's invite code and the
 * register link with the code filled in (`#/pages/register/register?invite=CODE`, which the
 * register page reads), as a QR code drawn in the page (the recharge page's `useQrCode`), with
 * copy buttons and "save as image": a PNG of the poster drawn on a canvas and downloaded. The
 * invite code comes from the synced profile, so the poster works offline.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/paths.js';
import { useSession } from '../../../client-db/use-session.js';
import { useCopy } from '../../ui/use-copy.js';
import { toast } from '../../ui/toast.js';
import { qrCodePng, useQrCode } from '../../ui/use-qr-code.js';
import { posterFileName, registerLinkOf } from './team-view.js';
import { useInviteCode } from './use-team.js';
import './team.css';

export default function SharePosterPage() {
  const session = useSession();
  if (!session) return null;
  return <Poster userId={session.userId} />;
}

/** This app's address without its hash: where a register link leads. */
const appBase = () => `${window.location.origin}${window.location.pathname}`;

function Poster({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const code = useInviteCode(userId);
  const link = code ? registerLinkOf(appBase(), ROUTES.register, code) : null;
  const qr = useQrCode(link);
  const copy = useCopy();
  const save = async () => {
    if (!code || !link) return;
    try {
      const file = posterFileName(code);
      await downloadPoster(file, {
        headline: t('team.poster_headline'),
        codeLabel: t('team.poster_invite_code'),
        code,
        scan: t('team.poster_scan'),
        link,
      });
      toast(t('team.poster_saved', { file }));
    } catch {
      toast(t('team.poster_save_failed'));
    }
  };
  return (
    <div className="page-padding stack share-poster">
      <section className="card share-poster__card" aria-labelledby="poster-headline">
        <p className="share-poster__brand">Coffer</p>
        <h2 id="poster-headline" className="share-poster__headline">
          {t('team.poster_headline')}
        </h2>
        <div className="share-poster__qr">
          {qr !== null ? (
            <img src={qr} alt={t('team.poster_qr_alt', { code: code ?? '' })} width="200" height="200" />
          ) : (
            <div className="share-poster__qr-placeholder" aria-hidden="true" />
          )}
        </div>
        <p className="share-poster__scan">{t('team.poster_scan')}</p>
        <p className="share-poster__label">{t('team.poster_invite_code')}</p>
        <p className="share-poster__code">{code ?? '…'}</p>
        {code === null && <p className="muted">{t('team.poster_no_code')}</p>}
        <p className="share-poster__label">{t('team.poster_link')}</p>
        <p className="share-poster__link">{link ?? '…'}</p>
      </section>
      <div className="share-poster__actions">
        <Button color="primary" block onClick={() => copy(code ?? '')}>
          {t('team.poster_copy_code')}
        </Button>
        <Button block onClick={() => copy(link ?? '')}>
          {t('team.poster_copy_link')}
        </Button>
        <Button block disabled={!link} onClick={() => void save()}>
          {t('team.poster_save')}
        </Button>
      </div>
    </div>
  );
}

interface PosterText {
  headline: string;
  codeLabel: string;
  code: string;
  scan: string;
  link: string;
}

/** Draws the poster (720 × 1080) on a canvas and downloads it as a PNG named `file`. */
async function downloadPoster(file: string, text: PosterText): Promise<void> {
  const width = 720;
  const height = 1080;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  const gradient = context.createLinearGradient(0, 0, 0, height);
  gradient.addColorStop(0, '#0f5f4f');
  gradient.addColorStop(1, '#17201e');
  context.fillStyle = gradient;
  context.fillRect(0, 0, width, height);
  context.textAlign = 'center';
  context.fillStyle = '#ffffff';
  context.font = '600 40px system-ui, sans-serif';
  context.fillText('Coffer', width / 2, 110);
  context.font = '700 52px system-ui, sans-serif';
  fillWrapped(context, text.headline, width / 2, 200, width - 96, 62);
  const qr = await loadImage(await qrCodePng(text.link, 420));
  context.fillStyle = '#ffffff';
  context.fillRect((width - 460) / 2, 300, 460, 460);
  context.drawImage(qr, (width - 420) / 2, 320, 420, 420);
  context.fillStyle = '#ffffff';
  context.font = '400 30px system-ui, sans-serif';
  fillWrapped(context, text.scan, width / 2, 820, width - 96, 40);
  context.font = '400 28px system-ui, sans-serif';
  context.fillText(text.codeLabel, width / 2, 910);
  context.font = '700 64px ui-monospace, monospace';
  context.fillText(text.code, width / 2, 990);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('no image');
  const url = URL.createObjectURL(blob);
  try {
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = file;
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

function loadImage(source: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('image'));
    image.src = source;
  });
}

/** Writes `text` centred at x, wrapped to `maxWidth`, from `y` down by `lineHeight` (by words, or by characters without spaces). */
function fillWrapped(
  context: CanvasRenderingContext2D,
  text: string,
  x: number,
  y: number,
  maxWidth: number,
  lineHeight: number,
): void {
  const units = text.includes(' ') ? text.split(' ') : [...text];
  const joiner = text.includes(' ') ? ' ' : '';
  let line = '';
  let row = 0;
  for (const unit of units) {
    const candidate = line === '' ? unit : `${line}${joiner}${unit}`;
    if (context.measureText(candidate).width > maxWidth && line !== '') {
      context.fillText(line, x, y + row * lineHeight);
      row += 1;
      line = unit;
    } else {
      line = candidate;
    }
  }
  if (line !== '') context.fillText(line, x, y + row * lineHeight);
}
