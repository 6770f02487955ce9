/**
 * Team levels: the requirements and rewards of each level; add the next level, replace one,
 * remove the highest (levels stay numbered 1, 2, 3 ... without a gap).
 */
import { Button, Input } from 'antd';
import { useState } from 'react';
import { levelConfigDataSchema, TEAM_MAX_LEVEL, type TeamLevel } from '../../../contract/api/team.js';
import { useConsole } from '../../app/context.js';
import { RowButton } from '../../ui/list-page.js';
import { useI18n } from '../../i18n/i18n.js';
import { useConfirm } from '../../ui/confirm.js';
import { ConsoleTable } from '../../ui/console-table.js';
import { Field } from '../../ui/field.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { useAction } from '../../ui/use-action.js';
import { typedParams } from './form-values.js';
import { useLoaded } from './use-loaded.js';

type LevelForm = Partial<Record<Exclude<keyof TeamLevel, 'level'>, string>>;

const FIELDS = [
  ['name', 'products.level_name', 'text'],
  ['ownHosting', 'products.own_hosting', 'decimal'],
  ['directValidMembers', 'products.direct_valid_members', 'numeric'],
  ['smallAreaPerformance', 'products.small_area', 'decimal'],
  ['promotionRate1', 'products.promotion_rate1', 'decimal'],
  ['promotionRate2', 'products.promotion_rate2', 'decimal'],
  ['managementRate', 'products.management_rate', 'decimal'],
] as const;

export function LevelsSection() {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const config = useLoaded('/api/admin/team/levels', levelConfigDataSchema);
  const [editing, setEditing] = useState<number | null>(null);
  const levels = config.data?.levels ?? [];
  const highest = levels.reduce((top, item) => Math.max(top, item.level), 0);
  const current = levels.find((item) => item.level === editing);

  const save = async (values: LevelForm) => {
    const params = { ...typedParams(values), name: values.name?.trim() ?? '', level: editing };
    const done = await run(() => api.command('/api/admin/team/levels/set', params, levelConfigDataSchema));
    if (!done) return false;
    config.setData(done);
    return true;
  };
  const remove = (level: number) =>
    confirm(t('products.confirm_level_remove', { level }), async () => {
      const done = await run(() =>
        api.command('/api/admin/team/levels/remove', { level }, levelConfigDataSchema),
      );
      if (done) config.setData(done);
    });

  return (
    <>
      {config.data ? (
        <p>
          {t('products.levels_rules', {
            threshold: config.data.validHostingThreshold,
            generations: config.data.promotionGenerations,
            depth: config.data.managementDepth,
          })}
        </p>
      ) : null}
      <div className="console-filters">
        <Button type="primary" disabled={highest >= TEAM_MAX_LEVEL} onClick={() => setEditing(highest + 1)}>
          {t('products.level_add', { level: highest + 1 })}
        </Button>
      </div>
      <ConsoleTable<TeamLevel>
        label={t('products.levels')}
        rowKey="level"
        dataSource={levels}
        columns={[
          { title: t('products.level'), dataIndex: 'level' },
          ...FIELDS.map(([key, label]) => ({ title: t(label), dataIndex: key })),
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_value, item) => (
              <span className="console-actions">
                <RowButton
                  label={t('products.edit')}
                  row={`${t('products.level')} ${item.level}`}
                  onClick={() => setEditing(item.level)}
                />
                {item.level === highest ? (
                  <RowButton
                    label={t('products.remove')}
                    row={`${t('products.level')} ${item.level}`}
                    tone="danger"
                    onClick={() => remove(item.level)}
                  />
                ) : null}
              </span>
            ),
          },
        ]}
      />
      <FormDialog<LevelForm>
        key={editing ?? 0}
        open={editing !== null}
        name="level"
        title={t('products.level_set', { level: editing ?? '' })}
        {...(current
          ? {
              initialValues: Object.fromEntries(
                FIELDS.map(([key]) => [key, String(current[key])]),
              ) as LevelForm,
            }
          : {})}
        effect={(values) =>
          t(current ? 'products.confirm_level_replace' : 'products.confirm_level_add', {
            level: editing ?? '',
            name: values.name || '…',
          })
        }
        onClose={() => setEditing(null)}
        onSubmit={save}
      >
        {FIELDS.map(([key, label, mode]) => (
          <Field key={key} label={label} name={key} required>
            <Input inputMode={mode} maxLength={key === 'name' ? 20 : 40} />
          </Field>
        ))}
      </FormDialog>
    </>
  );
}
