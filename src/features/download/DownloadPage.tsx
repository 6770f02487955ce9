/** pages/download/download (custom header): install Coffer on the phone's home screen. */
import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { APP_VERSION } from '../../../contract/constants.js';
import { ROUTES } from '../../app/paths.js';

interface InstallPrompt extends Event {
  prompt(): Promise<void>;
}

export default function DownloadPage() {
  const { t } = useTranslation();
  const [prompt, setPrompt] = useState<InstallPrompt | null>(null);
  useEffect(() => {
    const keep = (event: Event) => {
      event.preventDefault();
      setPrompt(event as InstallPrompt); // beforeinstallprompt carries prompt(); DOM typings lack the event
    };
    window.addEventListener('beforeinstallprompt', keep);
    return () => window.removeEventListener('beforeinstallprompt', keep);
  }, []);
  return (
    <div className="page-padding stack download">
      <h1>{t('download.title')}</h1>
      <p>{t('download.intro')}</p>
      <ol className="download__steps">
        <li>{t('download.step_open')}</li>
        <li>{t('download.step_menu')}</li>
        <li>{t('download.step_add')}</li>
      </ol>
      {prompt && (
        <Button color="primary" block size="large" onClick={() => void prompt.prompt()}>
          {t('download.install')}
        </Button>
      )}
      <p className="muted">{t('download.version', { version: APP_VERSION })}</p>
      <Link to={ROUTES.login}>{t('download.to_login')}</Link>
    </div>
  );
}
