/**
 * Products and settings (finance): the platform settings (RAB price, newcomer incentive), the
 * hosting products and machines on offer (add, edit, disable), the team levels, the working-day
 * calendar, AI dividends, delivery records (a CSV file previewed, then imported all or nothing),
 * income airdrops and ticket issues; one file per section under products/, each change behind
 * a dialog that states its effect.
 */
import { Radio } from 'antd';
import { useState } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { Page } from '../ui/page.js';
import { CalendarSection } from './products/calendar-section.js';
import { DeliverySection } from './products/delivery-section.js';
import { DividendsSection } from './products/dividends-section.js';
import { GrantSection } from './products/grant-section.js';
import { HostingSection } from './products/hosting-section.js';
import { LevelsSection } from './products/levels-section.js';
import { MachinesSection } from './products/machines-section.js';
import { SECTIONS, type Section } from './products/sections.js';
import { SettingsSection } from './products/settings-section.js';

/** The sections as buttons that wrap at phone width (tabs would not fit, and antd's overflow menu breaks the tab list's roles). */
export function ProductsPage() {
  const { t } = useI18n();
  const [section, setSection] = useState<Section>('settings');
  return (
    <Page title={t('products.title')}>
      <Radio.Group
        className="console-filters"
        aria-label={t('products.title')}
        optionType="button"
        value={section}
        onChange={(event) => setSection(SECTIONS.find((item) => item === event.target.value) ?? 'settings')}
        options={SECTIONS.map((value) => ({ value, label: t(`products.${value}`) }))}
      />
      {section === 'settings' ? <SettingsSection /> : null}
      {section === 'hosting' ? <HostingSection /> : null}
      {section === 'machines' ? <MachinesSection /> : null}
      {section === 'levels' ? <LevelsSection /> : null}
      {section === 'calendar' ? <CalendarSection /> : null}
      {section === 'dividends' ? <DividendsSection /> : null}
      {section === 'delivery' ? <DeliverySection /> : null}
      {section === 'airdrop' ? <GrantSection key="airdrop" kind="airdrop" /> : null}
      {section === 'tickets' ? <GrantSection key="tickets" kind="tickets" /> : null}
    </Page>
  );
}
