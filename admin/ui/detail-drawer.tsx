/** A record's detail beside its list: the drawer with its title and named close button, and its facts. */
import { Descriptions, Drawer } from 'antd';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.js';

export function DetailDrawer({
  open,
  onClose,
  title,
  size = 520,
  loading = false,
  children,
}: {
  open: boolean;
  onClose(): void;
  title: string;
  size?: number | string;
  loading?: boolean;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={title}
      size={size}
      loading={loading}
      closable={{ 'aria-label': t('common.close') }}
    >
      {children}
    </Drawer>
  );
}

/** The facts of a record, one labelled row each (`Descriptions.Item`s). */
export function Facts({ children }: { children: ReactNode }) {
  return (
    <Descriptions column={1} bordered size="small">
      {children}
    </Descriptions>
  );
}
