#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import pino from 'pino';
import { createApiKey } from './accounts/create-api-key.js';
import { CatalogError } from './catalog/catalog-error.js';
import { ConfigError } from './config/config-error.js';
import { readSettings, SettingsError } from './config/settings.js';
import { DatabaseUrlError } from './store/database.js';
import { addMember, removeMember } from './store/repositories/members.js';
import { findDefaultWorkspace, findOrganization } from './store/repositories/organizations.js';
import { enroll, unenroll } from './store/repositories/interns.js';
import { INTERN_PROGRAMME_TOPIC, MEMBERSHIP_TOPIC, membershipKey } from './api/interns/flag-cache.js';
import { announce } from './cli/announce.js';
import { newUserId } from './util/ids.js';
import { withDatabase } from './cli/open-database.js';
import { DEFAULT_SIM_PORT, runSimulator } from './sim/cli.js';
import { StartError } from './cli/listen-address.js';

const usd = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a non-negative number of USD');
  return n;
};

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number');
  return n;
};

const cliLog = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));

const program = new Command('model-gateway').description('Self-hosted model gateway').showHelpAfterError();

program
  .command('serve')
  .description('serve the API (HOST, PORT, DATABASE_URL, GATEWAY_CONFIG)')
  // Imported when run: the server's modules take most of a start, and the other commands need none of them.
  .action(async () => (await import('./cli/serve.js')).serve(readSettings()));

program
  .command('sim')
  .description('serve the simulated upstream providers (OpenAI-compatible) for demos, tests and benchmarks')
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--port <port>', 'port to listen on', port, DEFAULT_SIM_PORT)
  .action(async (opts: { host: string; port: number }) => runSimulator({ host: opts.host, port: opts.port }));

program
  .command('demo')
  .description('the gateway in front of the simulator on a throw-away database, with commands to paste (HOST, PORT)')
  .option('--port <port>', 'port of the gateway (default: PORT, else 8080)', port)
  .action(async (opts: { port?: number }) => {
    const settings = readSettings();
    await (await import('./cli/demo.js')).runDemo({ ...settings, port: opts.port ?? settings.port });
  });

program
  .command('migrate')
  .description('bring the database schema up to date and exit')
  .action(async () => {
    const settings = readSettings();
    await withDatabase(settings.databaseUrl, settings.bootstrapManagementKey, cliLog, async () => undefined);
  });

const keys = program.command('keys').description('manage API keys');
keys
  .command('create')
  .description('create an API key in the default organization and print it once')
  .requiredOption('--name <name>', 'name of the key')
  .option('--management', 'a management key (can manage keys and members)', false)
  .option('--limit <usd>', 'spending limit in USD', usd)
  .action(async (opts: { name: string; management: boolean; limit?: number }) => {
    const settings = readSettings();
    await withDatabase(settings.databaseUrl, settings.bootstrapManagementKey, cliLog, async (store, organizationId) => {
      const workspace = await findDefaultWorkspace(store.db, organizationId);
      if (!workspace) throw new Error('the default organization has no default workspace');
      const { key, row } = await createApiKey(
        store.db,
        {
          organizationId,
          workspaceId: workspace.id,
          name: opts.name,
          isManagement: opts.management,
          limit: opts.limit ?? null,
        },
        new Date().toISOString(),
      );
      process.stderr.write(`created ${opts.management ? 'management ' : ''}key "${row.name}" (hash ${row.hash})\n`);
      process.stdout.write(`${key}\n`);
    });
  });

const members = program.command('members').description('manage organization members');
members
  .command('add')
  .description('add a member to the default organization')
  .requiredOption('--email <email>', 'e-mail address')
  .addOption(new Option('--role <role>', 'role in the organization').choices(['admin', 'member']).default('member'))
  .option('--first-name <name>', 'first name')
  .option('--last-name <name>', 'last name')
  .action(async (opts: { email: string; role: 'admin' | 'member'; firstName?: string; lastName?: string }) => {
    if (!/^[^@\s]+@[^@\s]+$/.test(opts.email)) throw new InvalidArgumentError(`--email "${opts.email}" is not an e-mail address`);
    const settings = readSettings();
    await withDatabase(settings.databaseUrl, settings.bootstrapManagementKey, cliLog, async (store, organizationId) => {
      const member = await addMember(
        store.db,
        organizationId,
        {
          email: opts.email,
          role: opts.role,
          ...(opts.firstName !== undefined ? { first_name: opts.firstName } : {}),
          ...(opts.lastName !== undefined ? { last_name: opts.lastName } : {}),
        },
        newUserId,
        new Date().toISOString(),
      );
      process.stdout.write(`${JSON.stringify(member)}\n`);
    });
  });

members
  .command('remove')
  .description('remove a member from the default organization (their keys stop reaching interns until reassigned)')
  .requiredOption('--email <email>', 'e-mail address')
  .action(async (opts: { email: string }) => {
    const settings = readSettings();
    await withDatabase(settings.databaseUrl, settings.bootstrapManagementKey, cliLog, async (store, organizationId) => {
      const userId = await removeMember(store.db, organizationId, opts.email);
      if (!userId) throw new InvalidArgumentError(`${opts.email} is not a member of the organization`);
      await announce(store, settings.redisUrl, MEMBERSHIP_TOPIC, membershipKey(organizationId, userId));
      process.stdout.write(`removed ${opts.email.trim().toLowerCase()} (${userId})\n`);
    });
  });

const interns = program.command('interns').description('the interns programme');
for (const [name, description] of [['enroll', 'enroll an organization in the interns programme'], ['unenroll', 'take an organization out of the interns programme']] as const) {
  interns
    .command(name)
    .description(`${description} (the default organization unless --org)`)
    .option('--org <id>', 'organization id')
    .action(async (opts: { org?: string }) => {
      const settings = readSettings();
      await withDatabase(settings.databaseUrl, settings.bootstrapManagementKey, cliLog, async (store, defaultOrganizationId) => {
        const organizationId = opts.org ?? defaultOrganizationId;
        if (!(await findOrganization(store.db, organizationId))) throw new InvalidArgumentError(`--org ${organizationId} is not an organization`);
        if (name === 'enroll') await enroll(store.db, organizationId, new Date().toISOString());
        else await unenroll(store.db, organizationId);
        await announce(store, settings.redisUrl, INTERN_PROGRAMME_TOPIC, organizationId);
        process.stdout.write(`${name === 'enroll' ? 'enrolled' : 'unenrolled'} ${organizationId}\n`);
      });
    });
}

program.parseAsync(process.argv).catch((error: unknown) => {
  const known =
    error instanceof ConfigError ||
    error instanceof CatalogError ||
    error instanceof SettingsError ||
    error instanceof DatabaseUrlError ||
    error instanceof StartError ||
    error instanceof InvalidArgumentError;
  process.stderr.write(`model-gateway: ${known ? (error as Error).message : (error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
