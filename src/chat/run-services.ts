import type { Kysely } from 'kysely';
import type { LedgerWriter } from '../accounting/ledger-writer.js';
import type { SpendReservations } from '../accounting/reservations.js';
import type { CredentialCache } from '../byok/credential-cache.js';
import type { Catalog } from '../catalog/types.js';
import type { TaskSampler } from '../classifications/task-sampler.js';
import type { SettingsCache } from '../organization-settings/settings-cache.js';
import type { Pipeline } from '../plugins/pipeline.js';
import type { PresetCache } from '../presets/preset-cache.js';
import type { ChatAdapter } from '../protocol/adapters.js';
import type { EndpointHealth } from '../routing/endpoint-health.js';
import type { ProviderPins } from '../routing/provider-pins.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import type { WorkspaceCache } from '../workspaces/workspace-cache.js';
import type { RunObserver } from './run-observer.js';

/** What every flow (chat, rerank) needs beyond the request; built once in app.ts. */
export interface RunServices {
  db: Kysely<Database>;
  /** Writes ledger rows (group commit); settling a run waits for its row. */
  ledger: LedgerWriter;
  clock: Clock;
  catalog: Catalog;
  health: EndpointHealth;
  /** The keyed hash sent upstream instead of the end user's `user` (providers/shared/hash-end-user.ts). */
  hashEndUser: (user: string) => string;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Retry-After waits: the longest single wait, and all waits of one request together. */
  retryBudget: { maxWaitMs: number; totalWaitMs: number };
  /** Draws of the price-weighted load balancing; Math.random unless a test fixes it. */
  random?: () => number;
  /** Guardrails, plugins and server tools around the attempts. */
  pipeline: Pipeline;
  /** Holds the most a request can cost against its key's limit and guardrail budgets before any upstream call. */
  spend: SpendReservations;
  /** Metrics and traces of the runs (observability/); none in unit tests. */
  observer?: RunObserver;
  /** BYOK credentials (byok/credential-cache.ts): a plan's attempts go out on those the request may use. */
  byok?: CredentialCache;
  /** The share of a BYOK generation's endpoint price the gateway charges (0 by default: the provider bills the organization). */
  byokFeeRate?: number;
  /** Picks the chat requests whose prompt features the task classifications count (classifications/task-sampler.ts). */
  taskSampler?: TaskSampler;
}

/** What the chat flows need beyond the request; built once in app.ts. */
export interface ChatServices extends RunServices {
  adapters: Readonly<Record<string, ChatAdapter>>;
  /** Session stickiness (session_id). */
  pins: ProviderPins;
  /** Prompt-cache stickiness: the provider that last served a conversation, per model. */
  cachePins: ProviderPins;
  /** A stream sends keep-alive comments when the first upstream byte takes longer than this. */
  keepAliveAfterMs: number;
  /** Each organization's defaults for provider preferences and plugins, cached (no database read per request). */
  organizationSettings: SettingsCache;
  /** Presets a request may name, cached the same way. */
  presets: PresetCache;
  /** Each workspace's default models and provider sort, cached the same way. */
  workspaces: WorkspaceCache;
}
