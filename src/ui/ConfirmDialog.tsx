/** A modal confirmation (a native <dialog>, so the keyboard and screen readers get a real modal): its title, what it confirms, confirm and cancel. */
import { Button } from './adm-button.js';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function ConfirmDialog({
  title,
  subtitle,
  confirmLabel,
  busy,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  subtitle: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="confirm-dialog__title">
        {title}
      </h2>
      <p className="muted confirm-dialog__subtitle">{subtitle}</p>
      {children}
      <div className="confirm-dialog__actions">
        <Button block onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button block color="primary" loading={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
