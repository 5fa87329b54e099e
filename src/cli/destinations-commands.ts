import { randomBytes } from 'node:crypto';
import { InvalidArgumentError } from 'commander';
import { workspaceOf } from '../api/workspaces/workspace-operations.js';
import { loadGatewayConfig } from '../config/load-gateway-config.js';
import { pluginSettings } from '../config/plugin-settings.js';
import type { Settings } from '../config/settings.js';
import { toDestinationRecord } from '../destinations/destination-record.js';
import { sendTestEvent } from '../destinations/send-test-event.js';
import { publicAddressPolicy } from '../net/address-policy.js';
import { createSafeFetcher } from '../net/safe-fetch.js';
import { PROVIDER_KINDS } from '../providers/registry.js';
import { organizationReach } from '../store/reach.js';
import { eventCounts } from '../store/repositories/destination-events.js';
import { settingOrCreate } from '../store/repositories/gateway-settings.js';
import { findDestination, listDestinations } from '../store/repositories/observability-destinations.js';
import { secretBox } from '../util/secret-box.js';
import type { KeyCommandContext } from './keys-commands.js';
import { formatJson, formatTable } from './output.js';

// `model-gateway destinations …`: the default organization's observability destinations, as the API has them.

/** network.allow_private_ranges of the config file (GATEWAY_CONFIG), as serve reads it: a test goes where the sender may. */
export const configuredPrivateRanges = (settings: Pick<Settings, 'configPath'>): readonly string[] =>
  pluginSettings(settings.configPath ? loadGatewayConfig(settings.configPath, { knownKinds: PROVIDER_KINDS }) : undefined, process.env)
    .allowPrivateRanges;

/** The box the server seals configs with: the vault key (app.ts). */
const vaultBox = async ({ store }: KeyCommandContext) =>
  secretBox(await settingOrCreate(store.db, 'vault_key', () => randomBytes(32).toString('hex')));

/** `destinations list`: every live destination (or one workspace's) with its delivery state; secrets masked. */
export async function listDestinationsCommand(context: KeyCommandContext, options: { workspace?: string; json: boolean }): Promise<string> {
  const { store, organizationId } = context;
  const reach = organizationReach(organizationId);
  const workspaceId = options.workspace ? (await workspaceOf(store.db, reach, options.workspace)).id : undefined;
  const rows = await listDestinations(store.db, reach, workspaceId);
  const box = await vaultBox(context);
  const counts = await eventCounts(
    store.db,
    rows.map((row) => row.id),
  );
  const data = rows.map((row) => ({
    ...toDestinationRecord(box, row),
    delivery: {
      pending: counts.get(row.id)?.pending ?? 0,
      dead_letters: counts.get(row.id)?.dead ?? 0,
      last_success_at: row.last_success_at,
      last_error: row.last_error,
      retry_at: row.retry_at,
    },
  }));
  if (options.json) return formatJson({ data, total_count: data.length });
  return formatTable(
    ['ID', 'TYPE', 'NAME', 'WORKSPACE', 'ENABLED', 'PENDING', 'DEAD', 'LAST SUCCESS'],
    data.map((d) => [
      d.id,
      d.type,
      d.name,
      d.workspace_id,
      d.enabled,
      d.delivery.pending,
      d.delivery.dead_letters,
      d.delivery.last_success_at ?? '-',
    ]),
  );
}

/**
 * `destinations test <id>`: sends one test event to the destination now,
 * through the SSRF-safe fetcher under network.allow_private_ranges, and
 * reports what the receiver answered (`delivered` false: the command fails
 * after printing it).
 */
export async function testDestinationCommand(
  context: KeyCommandContext,
  allowPrivateRanges: readonly string[],
  id: string,
  json: boolean,
): Promise<{ report: string; delivered: boolean }> {
  const destination = await findDestination(context.store.db, organizationReach(context.organizationId), id);
  if (!destination) throw new InvalidArgumentError(`Observability destination ${id} not found`);
  const fetcher = createSafeFetcher({ policy: publicAddressPolicy(allowPrivateRanges) });
  try {
    const outcome = await sendTestEvent({ box: await vaultBox(context), fetcher, timeoutMs: 10_000 }, destination, context.now);
    const report = json
      ? formatJson({ data: { destination_id: destination.id, type: destination.type, ...outcome } })
      : formatTable(
          ['FIELD', 'VALUE'],
          [
            ['destination', `${destination.name} (${destination.type}, ${destination.id})`],
            ['test generation', outcome.generation_id],
            ...outcome.answers.map((a) => ['answer', `${a.status} from ${a.url}${a.body ? `: ${a.body}` : ''}`]),
            ['result', outcome.delivered ? 'delivered' : `not delivered: ${outcome.error}`],
          ],
        );
    return { report, delivered: outcome.delivered };
  } finally {
    await fetcher.close();
  }
}
