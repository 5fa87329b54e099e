/**
 * The gateway's Error classes other than GatewayError, and the catalogue
 * entries (errors.ts) each becomes where a client is told of it; a class no
 * client ever sees says where it goes instead. docs/errors.md lists this
 * table; error-classes.test.ts drives each mapping and finds every class.
 */
import type { ErrorCode } from '../protocol/gateway-error.js';
import { Errors } from './errors.js';

export interface ErrorClassMapping {
  name: string;
  /** Where it is declared. */
  file: string;
  /** The entries it can become; empty when no client sees it. */
  becomes: readonly ErrorCode[];
  /** Where the mapping is made, or where the error goes instead. */
  where: string;
}

const codes = (...entries: { code: ErrorCode }[]) => entries.map((e) => e.code);

const DATABASE_UNAVAILABLE = codes(Errors.databaseUnavailable);
const SAFE_FETCH =
  "plugins/file-parser/parse-pdf-parts.ts (a file URL that cannot be fetched); the web-fetch plugin and the interns' tools give it to the model as a tool result";

export const ERROR_CLASSES: readonly ErrorClassMapping[] = [
  {
    name: 'UpstreamError',
    file: 'src/protocol/upstream.ts',
    becomes: codes(
      Errors.upstreamFailed,
      Errors.upstreamTimeout,
      Errors.upstreamEdgeTimeout,
      Errors.upstreamOverloaded,
      Errors.upstreamRateLimited,
      Errors.upstreamRefused,
      Errors.noEndpointAvailable,
      Errors.gatewayOutOfResources,
      Errors.moderationFailed,
      Errors.webSearchFailed,
    ),
    where:
      'chat/attempt-outcome.ts finalError (the last failure, after every attempt), plugins/moderation-stage.ts, plugins/web/web-search-stage.ts',
  },
  { name: 'SafeFetchError', file: 'src/net/safe-fetch.ts', becomes: codes(Errors.fileUnreadable), where: SAFE_FETCH },
  {
    name: 'BlockedAddressError',
    file: 'src/net/guarded-lookup.ts',
    becomes: codes(Errors.fileUnreadable),
    where: `as the SafeFetchError (failure "blocked") that wraps it: ${SAFE_FETCH}`,
  },
  {
    name: 'UnreadablePdfError',
    file: 'src/plugins/file-parser/extract-pdf-text.ts',
    becomes: codes(Errors.fileUnreadable),
    where: 'plugins/file-parser/parse-pdf-parts.ts',
  },
  {
    name: 'AckTimeoutError',
    file: 'src/interns/runtime/intern-process.ts',
    becomes: codes(Errors.internTimeout),
    where: 'interns/runtime/intern-runtime-service.ts runtimeError',
  },
  {
    name: 'ChannelClosedError',
    file: 'src/interns/runtime/intern-process.ts',
    becomes: codes(Errors.internUnreachable),
    where: 'interns/runtime/intern-runtime-service.ts runtimeError',
  },
  {
    name: 'DatabaseUnavailableError',
    file: 'src/store/database-unavailable.ts',
    becomes: DATABASE_UNAVAILABLE,
    where: 'http/error-envelope.ts toGatewayError',
  },
  {
    name: 'LedgerOutboxFullError',
    file: 'src/accounting/ledger-outbox.ts',
    becomes: DATABASE_UNAVAILABLE,
    where: 'http/error-envelope.ts toGatewayError (a DatabaseUnavailableError)',
  },
  {
    name: 'UnreadablePageError',
    file: 'src/plugins/web-fetch/fetch-page.ts',
    becomes: [],
    where: "the web-fetch plugin's tool result: the model reads it, the request goes on",
  },
  {
    name: 'ToolError',
    file: 'src/interns/tools/intern-tool.ts',
    becomes: [],
    where: "an intern tool's result: the intern's model reads it",
  },
  {
    name: 'DeliveryError',
    file: 'src/destinations/exporters/deliver.ts',
    becomes: [],
    where:
      'destinations/destination-sender.ts: retried with backoff or dead-lettered; GET /observability/destinations/{id} shows it as delivery.last_error',
  },
  {
    name: 'S3Error',
    file: 'src/sim/s3/s3-error.ts',
    becomes: [],
    where:
      "the simulator's S3 store: answered as S3's XML error document; the AWS SDK in files' s3 storage or the s3 destination raises it",
  },
  { name: 'ConfigError', file: 'src/config/config-error.ts', becomes: [], where: 'start-up and config check: main.ts prints it and exits' },
  { name: 'CatalogError', file: 'src/catalog/catalog-error.ts', becomes: [], where: 'start-up: main.ts prints it and exits' },
  { name: 'SettingsError', file: 'src/config/settings-error.ts', becomes: [], where: 'start-up: main.ts prints it and exits' },
  { name: 'DatabaseUrlError', file: 'src/store/database.ts', becomes: [], where: 'start-up: main.ts prints it and exits' },
  { name: 'StartError', file: 'src/cli/listen-address.ts', becomes: [], where: 'start-up: main.ts prints it and exits' },
];
