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
 *   audit verify                                          (exit code 3 when the audit log's hash chain breaks)
 *   price set RAB <usdt>                                  setting set newcomerIncentive <usdt>
 *   calendar set <yyyy-mm-dd> holiday|workday|normal     calendar list
 *   sweep BEP20 [--key-file F]                            (deposit addresses -> hot wallet; the key is read
 *                                                          from F or standard input, used, never stored)
 *   withdraw list [--status S]                            withdraw approve --id I [--as NAME]
 *   withdraw reject --id I --reason R [--as NAME]         withdraw paid --id I --reference X [--as NAME]
 *   delivery import <file.csv>                            (publishes every line of the file, or none)
 *   dividend publish --day YYYY-MM-DD --total T | --rate R   dividend list
 *   hosting product list|add|update|disable ...           income airdrop --accounts A,B --amount X --reason R
 *   machine list|add|update|disable ...                   ticket issue --accounts A,B --count N --reason R
 *   team level list|set|remove ...                        team run --day YYYY-MM-DD   (re-runs a paid day)
 * Works on the same database as `npm start` (DATA_DIR or DATABASE_URL); every change is audited as `cli`.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { chainSchema } from '../../contract/api/recharge.js';
import { calendarSetParamsSchema } from '../../contract/api/calendar.js';
import {
  adminWithdrawIdParamsSchema,
  adminWithdrawListParamsSchema,
  adminWithdrawPaidParamsSchema,
  adminWithdrawRejectParamsSchema,
} from '../../contract/api/withdraw.js';
import { findDevnet } from '../chains/devnet.js';
import { cliContext } from './cli-context.js';
import { HOSTING_COMMANDS, HOSTING_OPTIONS, HOSTING_USAGE, runHostingCommand } from './hosting-cli.js';
import { MACHINE_COMMANDS, MACHINE_OPTIONS, MACHINE_USAGE, runMachineCommand } from './machine-cli.js';
import { runTeamCommand, TEAM_COMMANDS, TEAM_OPTIONS, TEAM_USAGE } from './team-cli.js';
import { DELIVERY_COLUMNS } from '../../contract/api/delivery.js';
import { dividendPublishParamsSchema } from '../../contract/api/dividend.js';
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
import { errorOfIssue } from '../core/params.js';

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
  audit verify   (recomputes the audit log's hash chain; exit code 3 names the first row that does not match)
  price set RAB <usdt>
  setting set newcomerIncentive <usdt>
  calendar set <yyyy-mm-dd> holiday|workday|normal   (withdrawals open on working days)
  calendar list
  sweep BEP20 [--key-file F]   (F: the deposit mnemonic or xprv, or chain-dev-keys.json; else read from standard input)
  withdraw list [--status pending|success|failed]
  withdraw approve --id I [--as NAME]   (above the review threshold, two different NAMEs approve)
  withdraw reject --id I --reason R [--as NAME]
  withdraw paid --id I --reference X [--as NAME]   (a bank card, or a TRC20 withdrawal sent by hand)
  delivery import <file.csv>   (trade settlement records: a header naming ${DELIVERY_COLUMNS.join(',')}; all lines or none)
  dividend publish --day YYYY-MM-DD --total 1000 | --rate 0.001   (the AI dividend of a local day that has ended)
  dividend list
${HOSTING_USAGE}
${MACHINE_USAGE}
${TEAM_USAGE}`;

/** Parses CLI values with a route's schema, so the CLI refuses what the API refuses. */
function parsed<S extends z.ZodType>(schema: S, values: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  throw issue ? errorOfIssue(issue) : new UsageError(USAGE);
}

class UsageError extends Error {}

/**
 * The deposit key for a sweep: from `file` (the mnemonic or xprv as text, or a chain-dev-keys.json
 * holding `mnemonic`), else from standard input (typed at a prompt or piped). Never stored.
 */
async function readSecret(file: string | undefined): Promise<string> {
  const text = file
    ? fs.readFileSync(file, 'utf8')
    : await new Promise<string>((resolve) => {
        if (process.stdin.isTTY) process.stderr.write('Deposit key (mnemonic or xprv), then Enter: ');
        const lines = readline.createInterface({ input: process.stdin });
        lines.once('line', (line) => {
          lines.close();
          resolve(line);
        });
        lines.once('close', () => resolve(''));
      });
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const parsed = z.object({ mnemonic: z.string() }).safeParse(JSON.parse(trimmed));
    if (parsed.success) return parsed.data.mnemonic;
  }
  return trimmed;
}

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
        'key-file',
        'status',
        'as',
        'reference',
        'day',
        'total',
        'rate',
        ...HOSTING_OPTIONS,
        ...MACHINE_OPTIONS,
        ...TEAM_OPTIONS,
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
    'audit verify',
    'calendar list',
    'withdraw list',
    'withdraw approve',
    'withdraw reject',
    'withdraw paid',
    'dividend publish',
    'dividend list',
    ...HOSTING_COMMANDS,
    ...MACHINE_COMMANDS,
    ...TEAM_COMMANDS,
  ];
  const withValue = (first: string, second: string) =>
    positionals[0] === first && positionals[1] === second && positionals.length === 4;
  if (
    !known.includes(command) &&
    !(positionals[0] === 'job' && positionals[1] === 'run' && positionals.length === 3) &&
    !withValue('price', 'set') &&
    !withValue('setting', 'set') &&
    !withValue('calendar', 'set') &&
    !(positionals[0] === 'sweep' && positionals.length === 2) &&
    !(positionals[0] === 'delivery' && positionals[1] === 'import' && positionals.length === 3)
  ) {
    throw new UsageError(USAGE);
  }
  const config = { ...loadConfig(), jobs: false };
  // A development setup's BEP20 node is the devnet `npm start` runs, when it runs.
  const devnet = config.chains.BEP20.url ? undefined : await findDevnet(config.dataDir);
  const server = await createServer({ config, logger: false, ...(devnet ? { devnet } : {}) });
  try {
    const operators = server.services.operators;
    const ctx = cliContext();
    if (server.rootInviteCreated) console.log(`Root invite code (first start): ${server.rootInviteCreated}`);
    if (server.rootOperatorCreated) {
      const { email, password } = server.rootOperatorCreated;
      console.log(
        `First operator ${email}, one-time password ${password} (change it at the first sign-in at /admin)`,
      );
    }
    if (HOSTING_COMMANDS.includes(command)) {
      await runHostingCommand(server, command, values, parsed);
      return;
    }
    if (MACHINE_COMMANDS.includes(command)) {
      await runMachineCommand(server, command, values, parsed);
      return;
    }
    if (TEAM_COMMANDS.includes(command)) {
      await runTeamCommand(server, command, values, parsed);
      return;
    }
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
        const created = await operators.create(ctx, parsed.data);
        console.log(`operator ${created.id} ${created.email} (${created.role}) created`);
        if (created.initialPassword) console.log(`initial password (shown once): ${created.initialPassword}`);
        return;
      }
      case 'news add':
        console.log(
          `news ${(await server.services.content.createNews(ctx, parsed(newsWriteParamsSchema, values))).id} published`,
        );
        return;
      case 'notice add':
        console.log(
          `notice ${(await server.services.content.createNotice(ctx, parsed(noticeWriteParamsSchema, values))).id} added`,
        );
        return;
      case 'quote set': {
        const quote = await server.services.content.setQuote(ctx, parsed(quoteWriteParamsSchema, values));
        console.log(`${quote.id} ${quote.price} (${quote.changePercent}%)`);
        return;
      }
      case 'feedback reply':
        console.log(
          `feedback ${(await server.services.feedback.reply(ctx, parsed(feedbackReplyParamsSchema, values))).id} replied`,
        );
        return;
      case 'ledger adjust': {
        const adjustment = await server.services.ledgerAdmin.adjust(
          ctx,
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
      case 'audit verify': {
        const check = await operators.verifyAudit();
        console.log(JSON.stringify(check, null, 2));
        if (!check.ok) process.exitCode = 3;
        return;
      }
      case 'operator list':
        for (const operator of (await operators.list()).items)
          console.log(`${operator.id}\t${operator.email}\t${operator.role}`);
        return;
      case 'invite create':
        console.log((await operators.createInvite(ctx)).code);
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
      case 'calendar list':
        for (const day of (await server.services.calendar.list()).items)
          console.log(`${day.date}\t${day.kind}`);
        return;
      case 'withdraw list': {
        const { status } = parsed(adminWithdrawListParamsSchema, { status: values.status });
        for (const item of (await server.services.withdraw.adminList({ status, limit: 100 })).items) {
          const destination =
            item.kind === 'bank' ? `${item.bankName} ${item.cardNumber}` : `${item.network} ${item.address}`;
          console.log(
            `${item.id}\t${item.status}/${item.stage}\t${item.amount} USDT (+${item.fee})\t${destination}\tapprovals ${item.approvedBy.length}/${item.approvalsNeeded}`,
          );
        }
        return;
      }
      case 'withdraw approve':
      case 'withdraw reject':
      case 'withdraw paid': {
        const action =
          command === 'withdraw approve' ? 'approve' : command === 'withdraw reject' ? 'reject' : 'paid';
        const { id } = parsed(adminWithdrawIdParamsSchema, { id: values.id });
        if (action === 'reject') parsed(adminWithdrawRejectParamsSchema, { id, reason: values.reason });
        if (action === 'paid') parsed(adminWithdrawPaidParamsSchema, { id, reference: values.reference });
        const as = cliContext(values.as ? values.as : null);
        const withdraw = server.services.withdraw;
        const item =
          action === 'approve'
            ? await withdraw.approve(as, { id })
            : action === 'reject'
              ? await withdraw.reject(as, { id, reason: values.reason ?? '' })
              : await withdraw.paid(as, { id, reference: values.reference ?? '' });
        console.log(
          `withdrawal ${item.id} ${item.status}/${item.stage}; approved by ${item.approvedBy.join(', ') || 'nobody yet'}`,
        );
        return;
      }
      case 'dividend publish': {
        const published = await server.services.dividends.publish(
          ctx,
          parsed(dividendPublishParamsSchema, { day: values.day, total: values.total, rate: values.rate }),
        );
        console.log(
          `dividend ${published.id} of ${published.day}: ${published.total} USDT to ${published.accounts} account(s), residue ${published.residue} to rounding; claimable until ${published.expiresAt}`,
        );
        return;
      }
      case 'dividend list':
        for (const item of (await server.services.dividends.adminList({ limit: 100 })).items)
          console.log(
            `${item.id}\t${item.day}\t${item.mode}${item.rate ? ` ${item.rate}` : ''}\t${item.total} USDT\t${item.accounts} account(s)\tresidue ${item.residue}`,
          );
        return;
      default: {
        if (withValue('calendar', 'set')) {
          const [, , date, kind] = positionals;
          const days = await server.services.calendar.set(
            ctx,
            parsed(calendarSetParamsSchema, { date, kind }),
          );
          console.log(`${date} ${kind}; ${days.items.length} exception(s) in the calendar`);
          return;
        }
        if (positionals[0] === 'delivery') {
          const file = positionals[2] ?? '';
          const imported = await server.services.delivery.importCsv(ctx, {
            csv: fs.readFileSync(file, 'utf8'),
          });
          console.log(`${imported.imported} delivery record(s) published from ${file}`);
          return;
        }
        if (positionals[0] === 'sweep') {
          const chain = chainSchema.safeParse(positionals[1]);
          if (!chain.success) throw new UsageError(USAGE);
          const secret = await readSecret(values['key-file']);
          const outcomes = await server.sweeps.sweep(ctx, chain.data, secret, (line) => console.log(line));
          const failed = outcomes.filter((outcome) => !outcome.ok).length;
          const swept = outcomes.filter((outcome) => outcome.txHash !== null).length;
          console.log(`swept ${swept} address(es), ${failed} failed`);
          if (failed > 0) process.exitCode = 1;
          return;
        }
        if (withValue('price', 'set') || withValue('setting', 'set')) {
          const [, , name, value] = positionals;
          const change =
            positionals[0] === 'price' && name === 'RAB'
              ? { rabPriceUsdt: value }
              : positionals[0] === 'setting' && name === 'newcomerIncentive'
                ? { newcomerIncentive: value }
                : null;
          if (!change) throw new UsageError(USAGE);
          const settings = await server.services.ledgerAdmin.updateSettings(
            ctx,
            parsed(platformSettingsParamsSchema, change),
          );
          console.log(
            `RAB price ${settings.rabPriceUsdt} USDT (price version ${settings.rabPriceVersion ?? 'none'}), newcomer incentive ${settings.newcomerIncentive} USDT`,
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
