/** What the home tab shows of the public records: the news a page at a time, in the reader's language. */

/** News shown at first, and added by each "more": the list stays cheap with any number stored. */
export const NEWS_PAGE = 20;

/** A record of `lang` shows in the current language, or everywhere when its lang is null. */
export function inLanguage(lang: string | null, language: string): boolean {
  return lang === null || lang === language;
}
