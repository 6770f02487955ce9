/** A real SMTP server on loopback for tests: keeps every message it receives, parsed. */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Received {
  rcptTo: string[];
  mail: ParsedMail;
}

export interface LocalSmtp {
  port: number;
  received: Received[];
  close(): Promise<void>;
}

/** Starts an SMTP server on 127.0.0.1 (`port` 0: any free port) that accepts every message. */
export async function startSmtp(port = 0): Promise<LocalSmtp> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const rcptTo = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
      simpleParser(stream).then(
        (mail) => {
          received.push({ rcptTo, mail });
          callback();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMTP server has no TCP address');
  return {
    port: address.port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
