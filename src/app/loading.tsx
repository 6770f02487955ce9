/** Page loading (after the spec's 200 ms delay) and chunk failures ("Connection timed out, tap to retry"). */
import { Component, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reloadWhenQuiet } from './service-worker.js';

export function PageLoading() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 200);
    return () => clearTimeout(timer);
  }, []);
  if (!shown) return null;
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}

function RetryChunk() {
  const { t } = useTranslation();
  return (
    <div className="page-error" role="alert">
      <button type="button" className="link-button" onClick={() => void reloadWhenQuiet()}>
        {t('errors.timeout_retry')}
      </button>
    </div>
  );
}

export class ChunkErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <RetryChunk /> : this.props.children;
  }
}
