/**
 * Every e-mail Coffer sends, written one way: a subject and paragraphs from the server catalogues
 * (locales/*.json, `mail.*`) in the recipient's language, as plain text and as HTML (each piece of
 * text HTML-escaped), with the user's anti-phishing code at the top when they set one.
 */
import type { Locale, Translator, Vars } from '../i18n/i18n.js';
import type { Mail, Mailer } from './mailer.js';

/** One paragraph: a catalogue key and its values. */
export interface Paragraph {
  key: string;
  vars?: Vars;
}

/** What a letter says, before it is put in a language. */
export interface Letter {
  subjectKey: string;
  subjectVars?: Vars;
  paragraphs: readonly Paragraph[];
}

/** Who receives it: the address, the language, and their anti-phishing code (null when none is set). */
export interface Recipient {
  email: string;
  locale: Locale;
  antiPhishingCode: string | null;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe inside HTML elements and attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** A catalogue text's lines as HTML: escaped, line breaks kept. */
const htmlLines = (text: string) => escapeHtml(text).replace(/\n/g, '<br>');

export class Letters {
  constructor(
    private readonly mailer: Mailer,
    private readonly translator: Translator,
  ) {}

  /** The mail `letter` makes for `to` (exported for tests and previews). */
  compose(to: Recipient, letter: Letter): Mail {
    const t = (key: string, vars?: Vars) => this.translator.t(to.locale, key, vars);
    const subject = t(letter.subjectKey, letter.subjectVars);
    const paragraphs = letter.paragraphs.map((paragraph) => t(paragraph.key, paragraph.vars));
    const footer = t('mail.footer');
    const antiPhishing =
      to.antiPhishingCode === null ? null : t('mail.anti_phishing_line', { code: to.antiPhishingCode });
    const text = [...(antiPhishing === null ? [] : [antiPhishing]), ...paragraphs, '--', footer].join('\n\n');
    const banner =
      antiPhishing === null
        ? ''
        : `<p style="margin:0 0 16px;padding:8px 12px;border:1px solid #c9a227;background:#fff8e1;font-weight:bold">${htmlLines(antiPhishing)}</p>`;
    const html = [
      '<!doctype html>',
      `<html lang="${escapeHtml(to.locale)}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
      '<body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1f1f1f">',
      banner,
      ...paragraphs.map((paragraph) => `<p style="margin:0 0 12px">${htmlLines(paragraph)}</p>`),
      `<hr style="border:0;border-top:1px solid #ddd"><p style="margin:0;color:#666;font-size:13px">${htmlLines(footer)}</p>`,
      '</body></html>',
    ].join('\n');
    return { to: to.email, subject, text, html };
  }

  /** Sends `letter` to `to`; throws when the transport refuses it. */
  send(to: Recipient, letter: Letter): Promise<void> {
    return this.mailer.send(this.compose(to, letter));
  }
}
