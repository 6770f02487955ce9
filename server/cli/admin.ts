/**
 * `npm run admin -- <command>`: the operator CLI for the first operator and invite codes.
 *   operator create --email E --role R [--password P]   (prints the generated password when none is given)
 *   operator list
 *   invite create                                         (prints the new code on its last line)
 *   invite list
 *   job run <name>                                        (runs a job for the current period now)
 *   news add --title T --summary S --body B [--lang L]    notice add --text T [--lang L]
 *   quote set --symbol BTC/USDT --name N --price P        feedback reply --id I --reply R
 *   ledger adjust --account A --asset USDT|RAB --amount 100 --reason R   (negative amounts take money out)
 *   ledger check                                          (exit code 3 when an invariant is violated)
 *   price set RAB <usdt>                                  setting set newcomerIncentive <usdt>
 * Works on the same database as `npm start` (DATA_DIR or DATABASE_URL); every change is audited as `cli`.
 */
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import {
  feedbackReplyParamsSchema,
  newsWriteParamsSchema,
  noticeWriteParamsSchema,
  quoteWriteParamsSchema,
} from '../../contract/api/content.js';
import {
  createOperatorParamsSchema,
  ledgerAdjustParamsSchema,
  platformSettingsParamsSchema,
} from '../../contract/api/admin.js';
import { createServer } from '../app.js';
import { loadConfig } from '../config.js';
import { BusinessError } from '../core/errors.js';
import { loadTranslator } from '../i18n/i18n.js';
import { JobName } from '../jobs/scheduler.js';
import { errorOfIssue } from '../http/params.js';

const USAGE = `usage: npm run admin -- <command>
  operator create --email E --role superadmin|finance|compliance|support|content [--password P]
  operator list
  invite create
  invite list
  job run ${Object.values(JobName).join('|')}
  news add --title T --summary S --body B [--lang zh-Hans|en|...]
  notice add --text T [--lang L]
  quote set --symbol BTC/USDT --name Bitcoin --price 64000.5
  feedback reply --id I --reply R
  ledger adjust --account A --asset USDT|RAB --amount 100 --reason R
  ledger check
  price set RAB <usdt>
  setting set newcomerIncentive <usdt>`;

/** Parses CLI values with a route's schema, so the CLI refuses what the API refuses. */
function parsed<S extends z.ZodType>(schema: S, values: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  throw issue ? errorOfIssue(issue) : new UsageError(USAGE);
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: Object.fromEntries(
      [
        'email',
        'role',
        'password',
        'title',
        'summary',
        'body',
        'lang',
        'text',
        'symbol',
        'name',
        'price',
        'id',
        'reply',
        'account',
        'asset',
        'amount',
        'reason',
      ].map((name) => [name, { type: 'string' as const }]),
    ),
  });
  const command = positionals.join(' ');
  const known = [
    'operator create',
    'operator list',
    'invite create',
    'invite list',
    'news add',
    'notice add',
    'quote set',
    'feedback reply',
    'ledger adjust',
    'ledger check',
  ];
  const withValue = (first: string, second: string) =>
    positionals[0] === first && positionals[1] === second && positionals.length === 4;
  if (
    !known.includes(command) &&
    !(positionals[0] === 'job' && positionals[1] === 'run' && positionals.length === 3) &&
    !withValue('price', 'set') &&
    !withValue('setting', 'set')
  ) {
    throw new UsageError(USAGE);
  }
  const config = { ...loadConfig(), jobs: false };
  const server = await createServer({ config, logger: false });
  try {
    const operators = server.services.operators;
    if (server.rootInviteCreated) console.log(`Root invite code (first start): ${server.rootInviteCreated}`);
    switch (command) {
      case 'operator create': {
        const parsed = createOperatorParamsSchema.safeParse({
          email: values.email,
          role: values.role,
          password: values.password,
        });
        if (!parsed.success) {
          const [issue] = parsed.error.issues;
          throw issue ? errorOfIssue(issue) : new UsageError(USAGE);
        }
        const created = await operators.createFromCli(parsed.data);
        console.log(`operator ${created.id} ${created.email} (${created.role}) created`);
        if (created.initialPassword) console.log(`initial password (shown once): ${created.initialPassword}`);
        return;
      }
      case 'news add':
        console.log(
          `news ${(await server.services.content.createNewsFromCli(parsed(newsWriteParamsSchema, values))).id} published`,
        );
        return;
      case 'notice add':
        console.log(
          `notice ${(await server.services.content.createNoticeFromCli(parsed(noticeWriteParamsSchema, values))).id} added`,
        );
        return;
      case 'quote set': {
        const quote = await server.services.content.setQuoteFromCli(parsed(quoteWriteParamsSchema, values));
        console.log(`${quote.id} ${quote.price} (${quote.changePercent}%)`);
        return;
      }
      case 'feedback reply':
        console.log(
          `feedback ${(await server.services.feedback.replyFromCli(parsed(feedbackReplyParamsSchema, values))).id} replied`,
        );
        return;
      case 'ledger adjust': {
        const adjustment = await server.services.ledgerAdmin.adjustFromCli(
          parsed(ledgerAdjustParamsSchema, {
            accountId: values.account,
            asset: values.asset,
            amount: values.amount,
            reason: values.reason,
          }),
        );
        console.log(`adjustment ${adjustment.id} ${adjustment.status}`);
        return;
      }
      case 'ledger check': {
        const check = await server.services.ledgerAdmin.check();
        console.log(JSON.stringify(check, null, 2));
        if (!check.ok) process.exitCode = 3;
        return;
      }
      case 'operator list':
        for (const operator of (await operators.list()).items)
          console.log(`${operator.id}\t${operator.email}\t${operator.role}`);
        return;
      case 'invite create':
        console.log((await operators.createInviteFromCli()).code);
        return;
      case 'invite list':
        for (const invite of await operators.listInvites()) {
          const owner = invite.root
            ? 'root'
            : invite.ownerUserId
              ? `user:${invite.ownerUserId}`
              : invite.ownerOperatorId
                ? `operator:${invite.ownerOperatorId}`
                : 'none';
          console.log(`${invite.code}\t${owner}\t${invite.disabled ? 'disabled' : 'active'}`);
        }
        return;
      default: {
        if (withValue('price', 'set') || withValue('setting', 'set')) {
          const [, , name, value] = positionals;
          const change =
            positionals[0] === 'price' && name === 'RAB'
              ? { rabPriceUsdt: value }
              : positionals[0] === 'setting' && name === 'newcomerIncentive'
                ? { newcomerIncentive: value }
                : null;
          if (!change) throw new UsageError(USAGE);
          const settings = await server.services.ledgerAdmin.updateSettingsFromCli(
            parsed(platformSettingsParamsSchema, change),
          );
          console.log(
            `RAB price ${settings.rabPriceUsdt} USDT, newcomer incentive ${settings.newcomerIncentive} USDT`,
          );
          return;
        }
        const name = positionals[2];
        const job = Object.values(JobName).find((candidate) => candidate === name);
        if (!job) throw new UsageError(USAGE);
        const result = await server.scheduler.runNow(job);
        console.log(
          `${job} ${result.period}: ${result.status}${result.detail ? ` ${JSON.stringify(result.detail)}` : ''}`,
        );
      }
    }
  } finally {
    await server.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof BusinessError) {
    const translator = loadTranslator();
    console.error(
      `error: ${translator.t('en', error.messageKey, { ...error.vars, field: String(error.vars['field'] ?? '') })}`,
    );
  } else {
    console.error(error instanceof Error ? error.message : error);
  }
  process.exit(error instanceof UsageError ? 2 : 1);
});
