/**
 * The desk's settings (docs/protocol.md §35.4): the support hours and community links the app's
 * support entry shows, and the canned replies agents type as `/code`, per language.
 */
import { Button, Checkbox, Drawer, Form, Input, Select, Space, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { z } from 'zod';
import {
  adminCannedListDataSchema,
  adminChatSettingsDataSchema,
  cannedReplySchema,
  type AdminChatSettings,
  type CannedReply,
} from '../../contract/api/chat.js';
import { LOCALES } from '../../contract/locales.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { useAction } from '../ui/use-action.js';

const doneSchema = z.object({ done: z.boolean() });
const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

interface SettingsForm {
  opens: string;
  closes: string;
  days: number[];
  communities: { name: string; url: string }[];
}

interface CannedForm {
  code: string;
  language: (typeof LOCALES)[number];
  text: string;
}

export function ChatSettings({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const [form] = Form.useForm<SettingsForm>();
  const [cannedForm] = Form.useForm<CannedForm>();
  const [canned, setCanned] = useState<CannedReply[]>([]);
  const [saved, setSaved] = useState(false);

  const loadCanned = useCallback(async () => {
    const list = await run(() => api.read('/api/admin/chat/canned-list', {}, adminCannedListDataSchema));
    if (list) setCanned(list.items);
  }, [api, run]);

  useEffect(() => {
    if (!open) return;
    setSaved(false);
    void run(() => api.read('/api/admin/chat/settings', {}, adminChatSettingsDataSchema)).then((settings) => {
      if (settings)
        form.setFieldsValue({
          opens: settings.hours.opens,
          closes: settings.hours.closes,
          days: settings.hours.days,
          communities: settings.communities,
        });
    });
    void loadCanned();
  }, [api, form, loadCanned, open, run]);

  const save = async (values: SettingsForm) => {
    const settings: AdminChatSettings | undefined = await run(
      () =>
        api.command(
          '/api/admin/chat/settings-save',
          {
            hours: { opens: values.opens, closes: values.closes, days: values.days },
            communities: values.communities ?? [],
          },
          adminChatSettingsDataSchema,
        ),
      form,
    );
    setSaved(settings !== undefined);
  };

  const saveCanned = async (values: CannedForm) => {
    const reply = await run(
      () => api.command('/api/admin/chat/canned-save', values, cannedReplySchema),
      cannedForm,
    );
    if (!reply) return;
    cannedForm.resetFields(['code', 'text']);
    await loadCanned();
  };

  const remove = async (id: string) => {
    if (await run(() => api.command('/api/admin/chat/canned-delete', { id }, doneSchema))) await loadCanned();
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('chat.settings')}
      size={560}
      closable={{ 'aria-label': t('common.close') }}
    >
      <h2 className="console-section">{t('chat.hours')}</h2>
      <Form form={form} layout="vertical" name="chat-settings" onFinish={(values) => void save(values)}>
        <Space wrap>
          <Form.Item
            label={t('chat.opens')}
            name="opens"
            rules={[{ required: true, pattern: /^\d{2}:\d{2}$/ }]}
          >
            <Input placeholder="09:00" maxLength={5} />
          </Form.Item>
          <Form.Item
            label={t('chat.closes')}
            name="closes"
            rules={[{ required: true, pattern: /^\d{2}:\d{2}$/ }]}
          >
            <Input placeholder="21:00" maxLength={5} />
          </Form.Item>
        </Space>
        {/* Not `required` here: antd would put aria-required on the group's div (the server refuses no day). */}
        <Form.Item label={t('chat.days')} name="days">
          <Checkbox.Group
            role="group"
            aria-label={t('chat.days')}
            options={DAYS.map((day) => ({ value: day, label: t(`chat.day.${day}`) }))}
          />
        </Form.Item>
        <h2 className="console-section">{t('chat.communities')}</h2>
        <Form.List name="communities">
          {(fields, { add, remove: drop }) => (
            <>
              {fields.map((field, index) => (
                <Space key={field.key} wrap align="start">
                  <Form.Item
                    label={t('chat.community_name', { index: index + 1 })}
                    name={[field.name, 'name']}
                    rules={[{ required: true }]}
                  >
                    <Input maxLength={60} />
                  </Form.Item>
                  <Form.Item
                    label={t('chat.community_url', { index: index + 1 })}
                    name={[field.name, 'url']}
                    rules={[{ required: true, pattern: /^https:\/\/\S+$/ }]}
                  >
                    <Input maxLength={300} placeholder="https://" />
                  </Form.Item>
                  <Button
                    onClick={() => drop(field.name)}
                    aria-label={t('chat.community_remove', { index: index + 1 })}
                  >
                    {t('chat.remove')}
                  </Button>
                </Space>
              ))}
              <Button onClick={() => add({ name: '', url: '' })}>{t('chat.community_add')}</Button>
            </>
          )}
        </Form.List>
        <div className="console-more">
          <Button type="primary" htmlType="submit">
            {t('chat.save_settings')}
          </Button>
          {saved ? <Typography.Text role="status"> {t('chat.saved')}</Typography.Text> : null}
        </div>
      </Form>

      <h2 className="console-section">{t('chat.canned')}</h2>
      <ul className="console-chat-canned-list">
        {canned.map((reply) => (
          <li key={reply.id}>
            <strong>/{reply.code}</strong> ({reply.language}):{' '}
            <span className="console-pre">{reply.text}</span>{' '}
            <Button
              size="small"
              onClick={() => void remove(reply.id)}
              aria-label={t('chat.canned_delete', { code: reply.code, language: reply.language })}
            >
              {t('chat.remove')}
            </Button>
          </li>
        ))}
      </ul>
      <Form
        form={cannedForm}
        layout="vertical"
        name="chat-canned"
        initialValues={{ language: 'zh-Hans' }}
        onFinish={(values) => void saveCanned(values)}
      >
        <Space wrap>
          <Form.Item
            label={t('chat.canned_code')}
            name="code"
            rules={[{ required: true, pattern: /^[a-z0-9][a-z0-9_-]{0,31}$/ }]}
          >
            <Input maxLength={32} />
          </Form.Item>
          <Form.Item label={t('chat.canned_language')} name="language" rules={[{ required: true }]}>
            <Select
              className="console-select"
              options={LOCALES.map((locale) => ({ value: locale, label: locale }))}
            />
          </Form.Item>
        </Space>
        <Form.Item label={t('chat.canned_text')} name="text" rules={[{ required: true }]}>
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
        <Button htmlType="submit">{t('chat.canned_save')}</Button>
      </Form>
    </Drawer>
  );
}
