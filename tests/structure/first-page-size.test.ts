/**
 * The first page's JavaScript has a budget (issue 26): the bundle's size is deterministic, so a
 * change that pulls a library into the login page fails here, not in a timing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { firstPageFile, PRERENDER_ID, SCRIPT_NONCE_PLACEHOLDER } from '../../contract/first-page.js';
import { LOCALES } from '../../contract/locales.js';
import { clientBuild, strings } from '../e2e/harness.js';
import { FIRST_PAGE_GZIP_BUDGET, measureFirstPage, tags, type FirstPage } from '../helpers/first-page.js';

describe('the production build', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-size-'));
  let measured: FirstPage;
  beforeAll(async () => {
    await clientBuild(dist);
    measured = measureFirstPage(dist);
  }, 180_000);
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  test(`the first page's initial JavaScript stays within ${FIRST_PAGE_GZIP_BUDGET / 1000} KB gzipped`, () => {
    const files = [...measured.files.values()].map((chunk) => `${path.basename(chunk.file)} ${chunk.gzip}`);
    expect(measured.notes.filter((note) => note.startsWith('missing'))).toEqual([]);
    expect(measured.gzip, `first page: ${files.join(', ')}`).toBeLessThanOrEqual(FIRST_PAGE_GZIP_BUDGET);
  });

  test('the first page loads no validation library and no record schema (the worker validates)', () => {
    for (const chunk of measured.files.values()) {
      const code = fs.readFileSync(chunk.file, 'utf8');
      expect(code, path.basename(chunk.file)).not.toContain('ZodError');
    }
  });

  test('the worker is built apart from the first page', () => {
    expect(measured.workers.size).toBeGreaterThan(0);
    for (const file of measured.workers.keys()) expect(measured.files.has(file)).toBe(false);
  });

  test("the shell preloads the login page's chunk", () => {
    const preloaded = [...measured.files.values()].filter(
      (chunk) => chunk.reason === '<link rel=modulepreload>',
    );
    expect(preloaded.some((chunk) => /LoginPage-[\w-]+\.js$/.test(chunk.file))).toBe(true);
  });

  test('issue 26: the login page is drawn into a first page in every language, whose gate loads the same scripts the shell names', () => {
    const shell = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const shellScripts = [
      ...tags(shell, 'script').map((script) => script['src']),
      ...tags(shell, 'link').flatMap((link) => (link['rel'] === 'modulepreload' ? [link['href']] : [])),
    ];
    for (const locale of LOCALES) {
      const page = fs.readFileSync(path.join(dist, firstPageFile(locale)), 'utf8');
      const t = strings(locale);
      expect(page).toContain(`<html lang="${locale}">`);
      expect(page).toContain(`<div id="${PRERENDER_ID}" data-locale="${locale}">`);
      expect(page).toContain(`<h1 class="auth__title">${t('auth.login_title')}</h1>`);
      expect(page).toContain(`>${t('auth.login')}</span></button>`);
      expect([...page.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])).toEqual([
        `<script nonce="${SCRIPT_NONCE_PLACEHOLDER}">`,
      ]);
      for (const script of shellScripts) expect(page, locale).toContain(JSON.stringify(script));
    }
    // Never precached: a returning visitor's page is index.html from the service worker.
    expect(fs.readFileSync(path.join(dist, 'sw.js'), 'utf8')).not.toContain('first/');
  });
});
