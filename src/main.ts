#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import pino from 'pino';
import { CatalogError } from './catalog/catalog-error.js';
import { announce } from './cli/announce.js';
import type { AddByokOptions } from './cli/byok-commands.js';
import type { CreateKeyOptions, KeyCommandContext } from './cli/keys-commands.js';
import { StartError } from './cli/listen-address.js';
import { openMigratedStore, withDatabase } from './cli/open-database.js';
import type { CreateWorkspaceOptions } from './cli/workspaces-commands.js';
import { ConfigError } from './config/config-error.js';
import { readSettings, SettingsError } from './config/settings.js';
import { INTERN_PROGRAMME_TOPIC, MEMBERSHIP_TOPIC, membershipKey } from './interns/flag-cache.js';
import { GatewayError } from './protocol/gateway-error.js';
import { DEFAULT_SIM_PORT, runSimulator } from './sim/cli.js';
import { DatabaseUrlError } from './store/database.js';
import { enroll, unenroll } from './store/repositories/interns.js';
import { addMember, removeMember } from './store/repositories/members.js';
import { findOrganization } from './store/repositories/organizations.js';
import { newUserId } from './util/ids.js';
import { packageVersion } from './util/package-version.js';

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number');
  return n;
};

const cliLog = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));

const program = new Command('model-gateway').description('Self-hosted model gateway').version(packageVersion()).showHelpAfterError();

// Imported when run, as the server's modules are: their schemas and validators would slow every other command's start.
const keyCommands = () => import('./cli/keys-commands.js');

/** Runs a command against the default organization of DATABASE_URL and prints what it returns. */
const onDefaultOrganization = (command: (context: KeyCommandContext) => Promise<string>) => {
  const settings = readSettings();
  return withDatabase(settings.databaseUrl, cliLog, async (store, organizationId) => {
    process.stdout.write(await command({ store, organizationId, redisUrl: settings.redisUrl, now: new Date() }));
  });
};

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
  .description('create or bring the database schema up to date and exit (the first start creates the organization and its key)')
  .action(async () => {
    await (await openMigratedStore(readSettings().databaseUrl, cliLog)).close();
  });

const keys = program.command('keys').description('manage API keys (of the default organization; a key is named by its hash)');
keys
  .command('create')
  .description('create an API key (in the default workspace unless --workspace names one) and print it once')
  .requiredOption('--name <name>', 'name of the key')
  .option('--management', 'a management key (can manage keys and members)', false)
  .option('--workspace <id>', "the key's workspace (id)")
  .option('--workspace-scope', 'a management key that manages only its workspace (always so for a workspace admin)', false)
  .option('--creator-user-id <id>', 'the member the key is for')
  .option('--limit <usd>', 'spending limit in USD')
  .option('--limit-reset <period>', 'when the limit starts again: daily, weekly or monthly')
  .option('--expires-at <time>', 'expiry, ISO 8601 in UTC (e.g. 2030-01-01T00:00:00Z)')
  .action(async (opts: CreateKeyOptions) =>
    onDefaultOrganization(async (context) => {
      const { key, row } = await (await keyCommands()).createKey(context, opts);
      const kind = row.is_management !== 1 ? '' : row.management_scope === 'workspace' ? 'workspace management ' : 'management ';
      process.stderr.write(`created ${kind}key "${row.name}" (hash ${row.hash})\n`);
      return `${key}\n`;
    }),
  );
keys
  .command('list')
  .description('list the keys of a workspace (the default one), 100 at a time')
  .option('--workspace <id>', 'workspace id')
  .option('--include-disabled', 'list disabled keys too', false)
  .option('--offset <n>', 'keys to skip')
  .option('--json', "print the API's JSON ({data: [...]})", false)
  .action(async (opts: { workspace?: string; includeDisabled: boolean; offset?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await keyCommands()).listKeys(context, opts)),
  );
keys
  .command('show')
  .description('show one key')
  .argument('<hash>', "the key's hash")
  .option('--json', "print the API's JSON ({data: {...}})", false)
  .action(async (hash: string, opts: { json: boolean }) =>
    onDefaultOrganization(async (context) => (await keyCommands()).showKey(context, hash, opts.json)),
  );
keys
  .command('update')
  .description("change a key's name, limit, reset or creator; running servers see it at once (Redis or PostgreSQL)")
  .argument('<hash>', "the key's hash")
  .option('--name <name>', 'new name')
  .option('--limit <usd>', 'spending limit in USD, or none')
  .option('--limit-reset <period>', 'daily, weekly, monthly, or none')
  .option('--include-byok-in-limit', 'count BYOK spend against the limit')
  .option('--no-include-byok-in-limit', 'do not count BYOK spend against the limit')
  .option('--creator-user-id <id>', 'reassign the key to another active member')
  .option('--json', "print the API's JSON ({data: {...}})", false)
  .action(
    async (
      hash: string,
      opts: { name?: string; limit?: string; limitReset?: string; includeByokInLimit?: boolean; creatorUserId?: string; json: boolean },
    ) => onDefaultOrganization(async (context) => (await keyCommands()).changeKey(context, hash, opts)),
  );
for (const [name, disabled] of [
  ['disable', true],
  ['enable', false],
] as const) {
  keys
    .command(name)
    .description(`${name} a key; running servers ${disabled ? 'refuse it from its next request' : 'accept it again'}`)
    .argument('<hash>', "the key's hash")
    .option('--json', "print the API's JSON ({data: {...}})", false)
    .action(async (hash: string, opts: { json: boolean }) =>
      onDefaultOrganization(async (context) => (await keyCommands()).changeKey(context, hash, { disabled, json: opts.json })),
    );
}
keys
  .command('delete')
  .description('delete a key; running servers refuse it from its next request')
  .argument('<hash>', "the key's hash")
  .option('--json', 'print the API\'s JSON ({"deleted": true})', false)
  .action(async (hash: string, opts: { json: boolean }) =>
    onDefaultOrganization(async (context) => (await keyCommands()).removeKey(context, hash, opts.json)),
  );

const members = program.command('members').description('manage organization members');
members
  .command('list')
  .description('list the members of the default organization, 50 at a time unless --limit')
  .option('--offset <n>', 'members to skip')
  .option('--limit <n>', 'members to list, 1 to 100')
  .option('--json', "print the API's JSON ({data: [...], total_count})", false)
  .action(async (opts: { offset?: string; limit?: string; json: boolean }) =>
    onDefaultOrganization(async ({ store, organizationId }) =>
      (await import('./cli/members-commands.js')).listOrganizationMembers(store, organizationId, opts),
    ),
  );
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
    await withDatabase(settings.databaseUrl, cliLog, async (store, organizationId) => {
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
    await withDatabase(settings.databaseUrl, cliLog, async (store, organizationId) => {
      const userId = await removeMember(store.db, organizationId, opts.email);
      if (!userId) throw new InvalidArgumentError(`${opts.email} is not a member of the organization`);
      await announce(store, settings.redisUrl, MEMBERSHIP_TOPIC, membershipKey(organizationId, userId));
      process.stdout.write(`removed ${opts.email.trim().toLowerCase()} (${userId})\n`);
    });
  });

const files = program.command('files').description("the default organization's uploaded files (the files API)");
const fileCommands = () => import('./cli/files-commands.js');
files
  .command('list')
  .description('list uploaded files, newest first, 100 unless --limit')
  .option('--workspace <workspace>', 'only this workspace’s (id or slug)')
  .option('--limit <n>', 'files to list, 1 to 1000')
  .option('--json', "print the API's JSON ({data: [...], has_more})", false)
  .action(async (opts: { workspace?: string; limit?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await fileCommands()).listFilesCommand(context, opts)),
  );
files
  .command('delete')
  .description('delete an uploaded file: its record and its bytes (FILES_STORAGE, FILES_DIR)')
  .argument('<file-id>', 'the file id (or_file_…)')
  .option('--json', "print the API's JSON", false)
  .action(async (fileId: string, opts: { json: boolean }) =>
    onDefaultOrganization(async (context) => (await fileCommands()).deleteFileCommand(context, readSettings().files, fileId, opts.json)),
  );

const destinations = program.command('destinations').description("the default organization's observability destinations");
const destinationCommands = () => import('./cli/destinations-commands.js');
destinations
  .command('list')
  .description('list the destinations with their delivery state (pending events, dead letters, last success)')
  .option('--workspace <workspace>', 'only this workspace’s (id or slug)')
  .option('--json', "print the API's JSON ({data: [...], total_count})", false)
  .action(async (opts: { workspace?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await destinationCommands()).listDestinationsCommand(context, opts)),
  );
destinations
  .command('test')
  .description('send a test event to a destination now and print what its receiver answered (exit 1 if not delivered)')
  .argument('<id>', 'the destination id')
  .option('--json', 'print the outcome as JSON', false)
  .action(async (id: string, opts: { json: boolean }) =>
    onDefaultOrganization(async (context) => {
      const commands = await destinationCommands();
      const outcome = await commands.testDestinationCommand(context, commands.configuredPrivateRanges(readSettings()), id, opts.json);
      if (!outcome.delivered) process.exitCode = 1;
      return outcome.report;
    }),
  );

const workspaces = program
  .command('workspaces')
  .description("the default organization's workspaces (named by id or slug) and their members");
const workspaceCommands = () => import('./cli/workspaces-commands.js');
workspaces
  .command('list')
  .description('list the workspaces, the default one first, 50 at a time unless --limit')
  .option('--offset <n>', 'workspaces to skip')
  .option('--limit <n>', 'workspaces to list, 1 to 100')
  .option('--json', "print the API's JSON ({data: [...], total_count})", false)
  .action(async (opts: { offset?: string; limit?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await workspaceCommands()).listWorkspacesCommand(context, opts)),
  );
workspaces
  .command('create')
  .description('create a workspace; its default models must be models of the config (GATEWAY_CONFIG)')
  .requiredOption('--name <name>', 'name of the workspace')
  .requiredOption('--slug <slug>', 'lowercase letters and digits, in segments joined by hyphens')
  .option('--description <text>', 'what the workspace is for')
  .option('--default-text-model <model>', 'the model of its keys’ chat requests that name none')
  .option('--default-image-model <model>', 'the model of its keys’ image requests that name none')
  .option('--default-provider-sort <sort>', 'price, throughput, latency or exacto, where a request sets no sort')
  .option('--json', "print the API's JSON ({data: {...}})", false)
  .action(async (opts: CreateWorkspaceOptions) =>
    onDefaultOrganization(async (context) => (await workspaceCommands()).createWorkspaceCommand(context, readSettings().configPath, opts)),
  );
const workspaceMembers = workspaces
  .command('members')
  .description("a workspace's members (organization members, each an admin or a member there)");
workspaceMembers
  .command('list')
  .description("list a workspace's members (the default workspace: every organization member)")
  .argument('<workspace>', 'workspace id or slug')
  .option('--offset <n>', 'members to skip')
  .option('--limit <n>', 'members to list, 1 to 100')
  .option('--json', "print the API's JSON ({data: [...], total_count})", false)
  .action(async (workspace: string, opts: { offset?: string; limit?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await workspaceCommands()).listMembersCommand(context, workspace, opts)),
  );
workspaceMembers
  .command('add')
  .description('add organization members to a workspace (up to 100), with the role matching their organization role unless --role')
  .argument('<workspace>', 'workspace id or slug')
  .argument('<user-ids...>', 'user ids (GET /organization/members)')
  .addOption(new Option('--role <role>', 'their role in the workspace').choices(['admin', 'member']))
  .option('--json', "print the API's JSON ({data: [...], added_count})", false)
  .action(async (workspace: string, userIds: string[], opts: { role?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await workspaceCommands()).addMembersCommand(context, workspace, userIds, opts)),
  );
workspaceMembers
  .command('remove')
  .description('take members out of a workspace (refused while they have active keys there)')
  .argument('<workspace>', 'workspace id or slug')
  .argument('<user-ids...>', 'user ids')
  .option('--json', 'print the API\'s JSON ({"removed_count": n})', false)
  .action(async (workspace: string, userIds: string[], opts: { json: boolean }) =>
    onDefaultOrganization(async (context) => (await workspaceCommands()).removeMembersCommand(context, workspace, userIds, opts)),
  );

const interns = program.command('interns').description('the interns programme');
for (const [name, description] of [
  ['enroll', 'enroll an organization in the interns programme'],
  ['unenroll', 'take an organization out of the interns programme'],
] as const) {
  interns
    .command(name)
    .description(`${description} (the default organization unless --org)`)
    .option('--org <id>', 'organization id')
    .action(async (opts: { org?: string }) => {
      const settings = readSettings();
      await withDatabase(settings.databaseUrl, cliLog, async (store, defaultOrganizationId) => {
        const organizationId = opts.org ?? defaultOrganizationId;
        if (!(await findOrganization(store.db, organizationId)))
          throw new InvalidArgumentError(`--org ${organizationId} is not an organization`);
        if (name === 'enroll') await enroll(store.db, organizationId, new Date().toISOString());
        else await unenroll(store.db, organizationId);
        await announce(store, settings.redisUrl, INTERN_PROGRAMME_TOPIC, organizationId);
        process.stdout.write(`${name === 'enroll' ? 'enrolled' : 'unenrolled'} ${organizationId}\n`);
      });
    });
}

const credits = program
  .command('credits')
  .description("organizations' credits: once granted any, an organization's requests must fit in its balance");
credits
  .command('grant')
  .description('grant credits (USD) to an organization, the default one unless --org; a negative amount corrects an earlier grant')
  .requiredOption('--amount <usd>', 'USD to add (negative: to take back)')
  .option('--org <id>', 'organization id')
  .option('--note <text>', 'why, kept with the grant')
  .option('--json', "print the API's JSON ({data: {...}})", false)
  .action(async (opts: { amount: string; org?: string; note?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await import('./cli/credits-commands.js')).grantCreditsCommand(context, opts)),
  );
credits
  .command('show')
  .description("an organization's credits (the default one unless --org): granted, used and left")
  .option('--org <id>', 'organization id')
  .option('--json', "print the API's JSON ({data: {total_credits, total_usage}})", false)
  .action(async (opts: { org?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await import('./cli/credits-commands.js')).showCreditsCommand(context, opts)),
  );

workspaces
  .command('budget')
  .description("a workspace's spending budgets, per interval (daily, weekly, monthly, lifetime)")
  .command('set')
  .description("set a workspace's budget for one interval (a narrower interval's limit must stay below every wider one's)")
  .argument('<workspace>', 'the workspace id or slug')
  .argument('<interval>', 'daily, weekly, monthly or lifetime')
  .requiredOption('--limit <usd>', 'the limit in USD')
  .option('--include-byok', "count BYOK spend toward the workspace's budgets (all intervals)")
  .option('--no-include-byok', "do not count BYOK spend toward the workspace's budgets")
  .option('--json', "print the API's JSON ({data: {...}, include_byok_in_budgets})", false)
  .action(async (workspace: string, interval: string, opts: { limit: string; includeByok?: boolean; json: boolean }) =>
    onDefaultOrganization(async (context) =>
      (await import('./cli/workspace-budget-commands.js')).setBudgetCommand(context, workspace, interval, opts),
    ),
  );

const byok = program
  .command('byok')
  .description('bring-your-own-key provider credentials of the default organization (docs/byok.md); the key is never shown');
const byokCommands = () => import('./cli/byok-commands.js');
const withMasterKeys = async (context: KeyCommandContext) => ({
  ...context,
  masterKeys: (await import('./byok/envelope.js')).readMasterKeys(process.env),
});
byok
  .command('list')
  .description('list the credentials (all workspaces, or one)')
  .option('--workspace <id>', 'a workspace id or slug')
  .option('--json', "print the API's JSON ({data: [...], total_count})", false)
  .action(async (opts: { workspace?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await byokCommands()).listByokCommand(context, opts)),
  );
byok
  .command('add')
  .description("add a provider credential: a workspace's, or the organization's (--workspace organization)")
  .requiredOption('--provider <slug>', 'a provider of the gateway (its id in gateway.yaml)')
  .requiredOption('--key <key>', 'the provider key; - reads it from standard input (kept out of the shell history)')
  .option('--workspace <id>', 'a workspace id or slug, or "organization" for every workspace (default: the default workspace)')
  .option('--name <name>', 'a name for the credential')
  .option('--fallback', "use it only after the gateway's own credential for the provider failed", false)
  .option('--sort-order <n>', 'order among the credentials for the same provider (lowest first)')
  .option('--json', "print the API's JSON ({data: {...}})", false)
  .action(async (opts: AddByokOptions) =>
    onDefaultOrganization(async (context) => {
      const commands = await byokCommands();
      const key = opts.key === '-' ? await commands.readStdinKey() : opts.key;
      return commands.addByokCommand(await withMasterKeys(context), commands.configuredCatalog(readSettings()), { ...opts, key });
    }),
  );
for (const [name, disabled] of [
  ['disable', true],
  ['enable', false],
] as const)
  byok
    .command(name)
    .description(`${name} a credential (requests stop or start using it at once on every instance)`)
    .argument('<id>', 'the credential id')
    .action(async (id: string) =>
      onDefaultOrganization(async (context) => (await byokCommands()).disableByokCommand(context, id, disabled)),
    );
byok
  .command('delete')
  .description('delete a credential and wipe its key material')
  .argument('<id>', 'the credential id')
  .action(async (id: string) => onDefaultOrganization(async (context) => (await byokCommands()).deleteByokCommand(context, id)));
byok
  .command('rewrap')
  .description('rewrap every credential under BYOK_MASTER_KEY (after a rotation; the old key in BYOK_MASTER_KEYS_PREVIOUS)')
  .action(async () => onDefaultOrganization(async (context) => (await byokCommands()).rewrapByokCommand(await withMasterKeys(context))));

program
  .command('scim')
  .description('SCIM provisioning of users and groups by an identity provider (Okta, Microsoft Entra ID)')
  .command('token')
  .description('the bearer token the identity provider presents at /api/v1/scim/v2')
  .command('create')
  .description('create the SCIM token of an organization (the default one unless --org) and print it once; the one before stops working')
  .option('--org <id>', 'organization id')
  .option('--json', "print the API's JSON ({data: {...}, token})", false)
  .action(async (opts: { org?: string; json: boolean }) =>
    onDefaultOrganization(async (context) => (await import('./cli/scim-commands.js')).createScimTokenCommand(context, opts)),
  );

program
  .command('config')
  .description('the config file')
  .command('check')
  .description('check a config file as serve does, without starting (exit code 1 when it is not valid)')
  .argument('[file]', 'the file (default: GATEWAY_CONFIG, else ./gateway.yaml)')
  .action(async (file: string | undefined) => {
    const { checkConfigFile, configCheckPath } = await import('./cli/config-check.js');
    process.stdout.write(checkConfigFile(file ?? configCheckPath(process.env), process.env));
  });

program
  .command('generations')
  .description('the usage ledger')
  .command('show')
  .description('show one generation of the default organization, as GET /api/v1/generation?id= does')
  .argument('<id>', 'the generation id (gen-…)')
  .option('--json', "print the API's JSON ({data: {...}})", false)
  .action(async (id: string, opts: { json: boolean }) =>
    onDefaultOrganization(async ({ store, organizationId }) =>
      (await import('./cli/generations-commands.js')).showGeneration(store, organizationId, id, opts.json),
    ),
  );

program.parseAsync(process.argv).catch((error: unknown) => {
  const known =
    error instanceof ConfigError ||
    error instanceof CatalogError ||
    error instanceof SettingsError ||
    error instanceof DatabaseUrlError ||
    error instanceof StartError ||
    error instanceof InvalidArgumentError ||
    error instanceof GatewayError;
  process.stderr.write(`model-gateway: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(1);
});
