/**
 * Outgoing mail: real SMTP when SMTP_URL is set; otherwise a dev mailbox of .eml files under
 * DATA_DIR/mailbox plus a log line (refused in production by the configuration).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

/** One e-mail, always both a plain-text and an HTML part (letters.ts writes both). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Sends one mail; throws when the transport refuses it. */
  send(mail: Mail): Promise<void>;
  /** Where mail goes, for the start-up banner. */
  readonly description: string;
  close(): void;
}

export function smtpMailer(url: string, from: string): Mailer {
  // Bounded: a code mail is sent inside the code's transaction (see README), so a silent SMTP
  // peer must not hold that transaction for nodemailer's default minutes.
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  const shown = new URL(url);
  shown.password = shown.password ? '***' : '';
  return {
    description: `SMTP ${shown.toString()}`,
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}

export function devMailbox(dir: string, from: string, log: (line: string) => void): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    description: `the dev mailbox ${dir} (set SMTP_URL for real mail)`,
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail });
      await fs.mkdir(dir, { recursive: true });
      sequence += 1;
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${sequence}-${mail.to.replace(/[^A-Za-z0-9@._-]/g, '_')}.eml`;
      await fs.writeFile(path.join(dir, name), info.message as Buffer); // streamTransport with buffer: true gives a Buffer
      log(`mail to ${mail.to}: ${mail.subject} | ${mail.text}`);
    },
    close: () => transport.close(),
  };
}
