/**
 * The service worker's web push handlers (public/push-sw.js, loaded by the generated worker with
 * importScripts), run in a node:vm context with a stand-in for the worker's global scope: a push
 * is shown as a notification with its title, body and the page it is about; a tap focuses an open
 * window and takes it there, or opens one; another origin's URL never opens.
 */
import fs from 'node:fs';
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';

const SCRIPT = fs.readFileSync(new URL('../../public/push-sw.js', import.meta.url), 'utf8');
const ORIGIN = 'https://coffer.example.com';

interface FakeWindow {
  url: string;
  focused: number;
  navigated: string[];
  focus(): Promise<FakeWindow>;
  navigate(url: string): Promise<FakeWindow | null>;
}

const fakeWindow = (url: string, controlled = true): FakeWindow => {
  const window: FakeWindow = {
    url,
    focused: 0,
    navigated: [],
    async focus() {
      window.focused += 1;
      return window;
    },
    async navigate(to: string) {
      if (!controlled) throw new TypeError('not controlled');
      window.navigated.push(to);
      window.url = to;
      return window;
    },
  };
  return window;
};

/** Loads the script into a fresh worker-like scope; answers its listeners and what they did. */
function load(windows: FakeWindow[] = []) {
  const listeners = new Map<string, (event: unknown) => void>();
  const shown: Array<{ title: string; options: { body: string; data: { url: string } } }> = [];
  const opened: string[] = [];
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    registration: {
      async showNotification(title: string, options: { body: string; data: { url: string } }) {
        shown.push({ title, options });
      },
    },
    clients: {
      async matchAll() {
        return windows;
      },
      async openWindow(url: string) {
        opened.push(url);
        return null;
      },
    },
  };
  vm.runInNewContext(SCRIPT, { self, URL });
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    const waits: Promise<unknown>[] = [];
    const listener = listeners.get(type);
    if (!listener) throw new Error(`no ${type} listener`);
    listener({ ...event, waitUntil: (promise: Promise<unknown>) => waits.push(promise) });
    await Promise.all(waits);
  };
  const push = (data: unknown) =>
    dispatch('push', {
      data:
        data === undefined
          ? null
          : {
              json: () => (typeof data === 'string' ? JSON.parse(data) : data),
            },
    });
  const click = (url: unknown) => {
    const notification = { data: { url }, closed: false, close: () => (notification.closed = true) };
    return dispatch('notificationclick', { notification }).then(() => notification);
  };
  return { listeners, shown, opened, push, click };
}

describe('the service worker shows pushes and opens their page', () => {
  test('it listens for push and notificationclick', () => {
    expect([...load().listeners.keys()].sort()).toEqual(['notificationclick', 'push']);
  });

  test('a push is shown with its title and body, and keeps its page as an address of the app', async () => {
    const sw = load();
    await sw.push({
      title: 'Deposit credited',
      body: '25.5 USDT has arrived',
      url: '/#/pages/withdraw/withdraw1',
    });
    expect(sw.shown).toHaveLength(1);
    expect(sw.shown[0]?.title).toBe('Deposit credited');
    expect(sw.shown[0]?.options).toMatchObject({
      body: '25.5 USDT has arrived',
      data: { url: `${ORIGIN}/#/pages/withdraw/withdraw1` },
    });
  });

  test('a push without a readable payload still shows something (a push must be visible)', async () => {
    const sw = load();
    await sw.push(undefined);
    await sw.push('not json {');
    expect(sw.shown.map((item) => [item.title, item.options.data.url])).toEqual([
      ['Coffer', `${ORIGIN}/`],
      ['Coffer', `${ORIGIN}/`],
    ]);
  });

  test('a tap focuses an open window of the app and takes it to the page', async () => {
    const open = fakeWindow(`${ORIGIN}/#/pages/index/index`);
    const sw = load([fakeWindow('https://elsewhere.example/'), open]);
    const notification = await sw.click(`${ORIGIN}/#/pages/setting/setting3`);
    expect(notification.closed).toBe(true);
    expect(open.focused).toBe(1);
    expect(open.navigated).toEqual([`${ORIGIN}/#/pages/setting/setting3`]);
    expect(sw.opened).toEqual([]);
  });

  test('with no window of the app open, a tap opens one at the page; a window it cannot steer gets a new one', async () => {
    const sw = load();
    await sw.click(`${ORIGIN}/#/pages/withdraw_record/withdraw_record`);
    expect(sw.opened).toEqual([`${ORIGIN}/#/pages/withdraw_record/withdraw_record`]);
    const uncontrolled = load([fakeWindow(`${ORIGIN}/`, false)]);
    await uncontrolled.click(`${ORIGIN}/#/pages/setting/setting2`);
    expect(uncontrolled.opened).toEqual([`${ORIGIN}/#/pages/setting/setting2`]);
  });

  test("another origin's address in a payload never opens: the app's start does", async () => {
    const sw = load();
    await sw.push({ title: 'x', body: 'y', url: 'https://phish.example/login' });
    expect(sw.shown[0]?.options.data.url).toBe(`${ORIGIN}/`);
    await sw.click('https://phish.example/login');
    expect(sw.opened).toEqual([`${ORIGIN}/`]);
  });
});
