import type { Generated, Insertable } from 'kysely';
import type { LatencyBucketColumn } from './latency-sketch.js';

/**
 * Table shapes shared by SQLite and PostgreSQL. Timestamps are ISO 8601 UTC
 * strings, booleans are 0/1 integers, money is USD as double precision: the
 * same values on both engines, so one set of queries serves both.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  is_default: number;
  created_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  created_at: string;
}

export type MemberRole = 'owner' | 'admin' | 'member';

export interface MembershipsTable {
  organization_id: string;
  user_id: string;
  role: MemberRole;
  created_at: string;
}

export interface WorkspacesTable {
  id: string;
  organization_id: string;
  name: string;
  slug: string;
  is_default: number;
  created_at: string;
  /** Migration 0032: the reference's Workspace fields. */
  description: string | null;
  default_text_model: string | null;
  default_image_model: string | null;
  default_provider_sort: string | null;
  default_guardrail_id: string | null;
  include_byok_in_budgets: Generated<number>;
  /** JSON array of the key hashes whose I/O is logged, or null for every key. */
  io_logging_api_key_ids: string | null;
  io_logging_sampling_rate: Generated<number>;
  is_data_discount_logging_enabled: Generated<number>;
  is_observability_broadcast_enabled: Generated<number>;
  is_observability_io_logging_enabled: Generated<number>;
  created_by: string | null;
  updated_at: string | null;
  /** Set when the workspace was deleted; its row stays so that the ledger's ids still name it. */
  deleted_at: string | null;
}

export type WorkspaceRole = 'admin' | 'member';

export interface WorkspaceMembersTable {
  id: string;
  workspace_id: string;
  user_id: string;
  role: WorkspaceRole;
  created_at: string;
  /** Migration 0035: 1 when a SCIM group mapping granted the membership (SCIM removes only these). */
  scim_managed: Generated<number>;
}

/** Migration 0035: an organization's SCIM bearer token, by its SHA-256 hash (the token itself is never stored). */
export interface ScimTokensTable {
  organization_id: string;
  token_hash: string;
  label: string;
  created_by: string | null;
  created_at: string;
}

/** A user an identity provider provisioned: its SCIM attributes beside the `users` row. */
export interface ScimUsersTable {
  organization_id: string;
  user_id: string;
  user_name: string;
  /** user_name lowercased: userName is unique regardless of case. */
  user_name_key: string;
  external_id: string | null;
  display_name: string | null;
  given_name: string | null;
  family_name: string | null;
  email: string | null;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface ScimGroupsTable {
  id: string;
  organization_id: string;
  display_name: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ScimGroupMembersTable {
  group_id: string;
  user_id: string;
  organization_id: string;
}

export interface ScimGroupMappingsTable {
  id: string;
  organization_id: string;
  scim_group_id: string;
  workspace_id: string;
  role: WorkspaceRole;
  created_at: string;
  updated_at: string;
}

export type BudgetInterval = 'daily' | 'weekly' | 'monthly' | 'lifetime';

export interface WorkspaceBudgetsTable {
  id: string;
  workspace_id: string;
  reset_interval: BudgetInterval;
  limit_usd: number;
  created_at: string;
  updated_at: string;
}

export type LimitReset = 'daily' | 'weekly' | 'monthly';

/** What a workspace spent (migration 0034): the counters of an API key, kept with each ledger write; what its budgets are checked against. */
export interface WorkspaceUsageTable {
  workspace_id: string;
  usage: Generated<number>;
  usage_daily: Generated<number>;
  usage_daily_period: Generated<string>;
  usage_weekly: Generated<number>;
  usage_weekly_period: Generated<string>;
  usage_monthly: Generated<number>;
  usage_monthly_period: Generated<string>;
  byok_usage: Generated<number>;
  byok_usage_daily: Generated<number>;
  byok_usage_weekly: Generated<number>;
  byok_usage_monthly: Generated<number>;
}

export interface ApiKeysTable {
  /** SHA-256 of the key, hex; the key itself is never stored. */
  hash: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  label: string;
  is_management: number;
  disabled: number;
  limit_usd: number | null;
  limit_reset: LimitReset | null;
  include_byok_in_limit: number;
  creator_user_id: string | null;
  app_id: number | null;
  /** A partner's end-user identifier, set when the key was created for one. */
  external_user: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string | null;
  /** Spend counters; each *_period column names the UTC period its counter belongs to. */
  usage: Generated<number>;
  usage_daily: Generated<number>;
  usage_daily_period: Generated<string>;
  usage_weekly: Generated<number>;
  usage_weekly_period: Generated<string>;
  usage_monthly: Generated<number>;
  usage_monthly_period: Generated<string>;
  byok_usage: Generated<number>;
  byok_usage_daily: Generated<number>;
  byok_usage_weekly: Generated<number>;
  byok_usage_monthly: Generated<number>;
  /** Migration 0032: 'workspace' when a management key reaches only its own workspace; null reaches the organization. */
  management_scope: 'workspace' | null;
}

export interface AppsTable {
  id: Generated<number>;
  organization_id: string;
  origin: string;
  name: string;
  created_at: string;
}

export interface AuthorizationCodesTable {
  id: string;
  organization_id: string;
  user_id: string | null;
  app_id: number;
  workspace_id: string;
  callback_url: string;
  code_challenge: string | null;
  code_challenge_method: 'S256' | 'plain' | null;
  key_label: string;
  limit_usd: number | null;
  limit_reset: LimitReset | null;
  key_expires_at: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The key that created the code (hash); null for codes older than migration 0020. */
  creator_key_hash: string | null;
}

export type GenerationStatus = 'success' | 'error' | 'cancelled';

export interface GenerationsTable {
  id: string;
  organization_id: string;
  workspace_id: string;
  api_key_hash: string;
  request_id: string | null;
  upstream_id: string | null;
  model: string;
  provider_name: string | null;
  upstream_model: string | null;
  app_id: number | null;
  external_user: string | null;
  user_hash: string | null;
  session_id: string | null;
  api_type: string;
  status: GenerationStatus;
  streamed: number;
  cancelled: number;
  finish_reason: string | null;
  native_finish_reason: string | null;
  service_tier: string | null;
  tokens_prompt: Generated<number>;
  tokens_completion: Generated<number>;
  tokens_cached: Generated<number>;
  tokens_cache_write: Generated<number>;
  tokens_reasoning: Generated<number>;
  total_cost: Generated<number>;
  cache_discount: number | null;
  latency_ms: number | null;
  ttft_ms: number | null;
  generation_time_ms: number | null;
  /** The HTTP status the failed generation answered. */
  error_code: number | null;
  /** Its error's catalogue name (GW_ERR_…, docs/errors.md); null on rows written before it was kept. */
  error_name: Generated<string | null>;
  error_message: string | null;
  /** JSON: the attempts made and why each endpoint was chosen. */
  routing: string | null;
  origin: string | null;
  /** The X-Title the request stated (migration 0041); null when none. */
  app_title: Generated<string | null>;
  user_agent: string | null;
  created_at: string;
  /** The generation this one was an inner call of (fusion panelists and analyst); null for a client's own request. */
  parent_generation_id: string | null;
  /** The intern run whose model call this was; null otherwise. */
  intern_run_id: Generated<string | null>;
  /** 1 when the token counts are the gateway's own (accounting/check-usage.ts), 0 when the upstream's. */
  usage_estimated: Generated<number>;
  /** Migration 0037: 1 when the serving attempt went out on a BYOK credential. */
  is_byok: Generated<number>;
  /** Migration 0037: a BYOK generation's cost at the endpoint's prices (counted in byok_usage); total_cost is its fee. */
  byok_cost: Generated<number>;
}

/** A ledger row as written (the columns the database fills may be left out). */
export type GenerationRecord = Insertable<GenerationsTable>;

export interface GatewaySettingsTable {
  name: string;
  value: string;
}

export interface PresetsTable {
  id: string;
  organization_id: string;
  workspace_id: string;
  slug: string;
  name: string;
  description: string | null;
  creator_user_id: string | null;
  designated_version_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface PresetVersionsTable {
  id: string;
  preset_id: string;
  version: number;
  creator_id: string;
  system_prompt: string | null;
  /** JSON object of chat-request fields. */
  config: string;
  created_at: string;
}

/** The reference's video job statuses (VideoGenerationResponse.status). */
export type VideoJobStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'expired';

export interface VideoJobsTable {
  id: string;
  organization_id: string;
  workspace_id: string;
  api_key_hash: string;
  generation_id: string;
  request_id: string | null;
  model: string;
  provider: string;
  upstream_model: string;
  /** JSON: the validated client request. */
  request: string;
  status: VideoJobStatus;
  upstream_id: string | null;
  error: string | null;
  /** Consecutive failed polls, for the backoff. */
  failures: Generated<number>;
  /** Seconds of video billed, once completed. */
  seconds: number | null;
  /** How many videos the upstream made (content indexes), once completed. */
  outputs: number | null;
  cost: number | null;
  next_poll_at: string;
  claimed_until: string;
  claim_token: string | null;
  user_agent: string | null;
  origin: string | null;
  created_at: string;
  updated_at: string;
  /** JSON: the endpoints ({provider, upstream_model, credential_id}) still to try, in plan order. */
  fallbacks: Generated<string>;
  /** USD held against the key's limits while the job runs (the most it can cost), and until when (ISO time). */
  reserved_usd: number | null;
  reserved_until: string | null;
  /** Migration 0049: the BYOK credential the job went out on, which its polls and downloads use too; null: the gateway's own. */
  credential_id: Generated<string | null>;
}

export interface OrganizationSettingsTable {
  organization_id: string;
  /** JSON: default provider preferences (the chat request's `provider` object), or null. */
  provider: string | null;
  /** JSON: default plugins (items of the chat request's `plugins`), or null. */
  plugins: string | null;
  updated_at: string;
  /** 1 when the chat flows store each generation's prompt and completion (migration 0023); 0 by default. */
  store_content: Generated<number>;
  /** Migration 0037: 1 (default) when a failing BYOK credential falls back to the gateway's own. */
  byok_fallback: Generated<number>;
}

/** Where a guardrail applies, narrowest first (the reference's guardrail_scope values). */
export type GuardrailScope = 'api-key' | 'member' | 'workspace' | 'organization';

export interface GuardrailsTable {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  /** JSON: the guardrail's rules (see guardrails/guardrail-rules.ts). */
  rules: string;
  limit_usd: number | null;
  reset_interval: LimitReset | null;
  include_byok_in_budgets: number;
  created_at: string;
  updated_at: string | null;
}

export interface GuardrailAssignmentsTable {
  id: string;
  organization_id: string;
  guardrail_id: string;
  scope: GuardrailScope;
  /** The key hash, member user id, workspace id or organization id the scope names. */
  target_id: string;
  assigned_by: string | null;
  created_at: string;
}

/** Organizations enrolled in the interns programme; absent rows are outside it. */
export interface InternProgrammeTable {
  organization_id: string;
  enrolled_at: string;
}

/** The SDK's Intern.status values. */
export type InternStatus = 'queued' | 'provisioning' | 'running' | 'failed' | 'stopped' | 'destroying' | 'destroy_failed';

export interface InternsTable {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  instructions: string | null;
  model: string | null;
  status: InternStatus;
  /** JSON {step_label, step_number, total_steps} while provisioning. */
  progress: string | null;
  last_failure_message: string | null;
  vault_id: string | null;
  /** JSON: see interns/intern-settings (allowed_domains, webhook_url, fallback_answer, deadline_seconds, max_open_questions, turns_per_minute, tools). */
  settings: string;
  created_by_user_id: string | null;
  created_at: string;
  updated_at: string;
}

export type InternSessionOrigin = 'invoke' | 'chat';

export interface InternSessionsTable {
  id: string;
  intern_id: string;
  organization_id: string;
  /** The key the session was issued to; only it may use the session. */
  api_key_hash: string;
  origin: InternSessionOrigin;
  created_at: string;
}

export type InternApprovalMode = 'self-drive' | 'manual';
export type InternRunStatus = 'running' | 'awaiting_input' | 'ended';

export interface InternRunsTable {
  id: string;
  session_id: string;
  intern_id: string;
  organization_id: string;
  api_key_hash: string;
  approval_mode: InternApprovalMode;
  status: InternRunStatus;
  /** 'finished' | 'deadline' | 'failed' | 'stopped' | 'cancelled' | ... once ended. */
  end_reason: string | null;
  error: string | null;
  started_at: string;
  ended_at: string | null;
  deadline_at: string;
  cost: Generated<number>;
  steps: Generated<number>;
  /** Lease, as video_jobs: the instance running it and until when. */
  claimed_by: string | null;
  claimed_until: string | null;
  /** JSON of the open question/approval in manual mode. */
  pending: string | null;
  /** While it waits for an answer: when the run is cancelled unless answered (migration 0013). */
  interaction_deadline_at: string | null;
  updated_at: string;
}

export type InternRunStepKind = 'input' | 'steer' | 'assistant' | 'tool_call' | 'tool_result' | 'question' | 'answer' | 'approval' | 'end';

export interface InternRunStepsTable {
  run_id: string;
  seq: number;
  kind: InternRunStepKind;
  /** JSON. */
  content: string;
  generation_id: string | null;
  created_at: string;
}

/** An intern create's idempotency key (migration 0014): what it created, from which body. */
export interface InternCreateKeysTable {
  api_key_hash: string;
  /** 'header': the caller's Idempotency-Key; 'body': derived from the request body. */
  source: 'header' | 'body';
  key: string;
  /** SHA-256 of the body's canonical JSON. */
  body_hash: string;
  intern_id: string;
  created_at: string;
}

/** An input for a run driven by another instance (migration 0015): waiting until its driver takes it (taken_at), or says why not (error). */
export interface InternRunInputsTable {
  id: string;
  run_id: string;
  kind: 'steer' | 'answer';
  text: string;
  created_at: string;
  taken_at: string | null;
  error: string | null;
}

/** The columns every vault secret has, whoever owns it. */
interface SecretColumns {
  name: string;
  /** AES-256-GCM of the value (util/secret-box.ts); the value is never returned. */
  ciphertext: string;
  /** JSON string[]: the exact hostnames the value may be sent to. */
  hosts: Generated<string>;
  fingerprint: string | null;
  created_at: string;
  updated_at: string;
}

export interface InternVaultSecretsTable extends SecretColumns {
  intern_id: string;
}

/** Workspace secrets (the SDK's /vault/secrets). */
export interface VaultSecretsTable extends SecretColumns {
  workspace_id: string;
  organization_id: string;
}

/** BYOK provider credentials (migration 0037); the key is sealed (byok/envelope.ts), never stored in the clear. */
export interface ByokCredentialsTable {
  id: string;
  organization_id: string;
  /** Null: the organization's, for every workspace. */
  workspace_id: string | null;
  provider: string;
  name: string | null;
  label: string;
  sealed_key: string | null;
  wrapped_data_key: string | null;
  master_key_id: string | null;
  /** JSON string[] or null (no restriction). */
  allowed_api_key_hashes: string | null;
  allowed_models: string | null;
  allowed_user_ids: string | null;
  is_fallback: Generated<number>;
  sort_order: Generated<number>;
  disabled: Generated<number>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** Sums of the ledger by organization, UTC hour, workspace, key, model and provider (migration 0021), kept with each ledger write. */
/** With the latency sketches' bucket counts (store/latency-sketch.ts, migration 0044). */
export interface UsageHourlyTable extends Record<LatencyBucketColumn, number> {
  organization_id: string;
  /** The hour's start, 'YYYY-MM-DDTHH' (UTC): a ledger row's created_at cut to 13 characters. */
  hour: string;
  workspace_id: string;
  api_key_hash: string;
  model: string;
  /** '' for the rows no provider served. */
  provider_name: string;
  requests: number;
  /** Rows of status 'error'. */
  errors: number;
  /** Of those, the ones answered with a 4xx (a refusal for the client's own doing), and the others (migration 0036). */
  errors_4xx: number;
  errors_5xx: number;
  tokens_prompt: number;
  tokens_completion: number;
  tokens_reasoning: number;
  tokens_cached: number;
  cost: number;
  /** Sum and number of the rows' latency_ms (rows without one count in neither). */
  latency_ms_sum: number;
  latency_count: number;
}

/** The ledger's requests and tokens by organization, UTC day, workspace, app and model (migration 0041): the datasets' rankings. */
export interface AppUsageDailyTable {
  organization_id: string;
  /** 'YYYY-MM-DD' (UTC). */
  day: string;
  workspace_id: string;
  /** The app's slug (store/app-identity.ts); '' for the requests that named no app. */
  app: string;
  model: string;
  /** The app's name as last stated; '' with no app. */
  app_name: string;
  requests: number;
  /** prompt + completion tokens. */
  tokens: number;
  /** Requests that ended in a tool call (finish_reason tool_calls). */
  tool_call_requests: number;
}

/** A session's part served by one app and model (migration 0041): what the median cost per session is computed from. */
export interface SessionUsageTable {
  organization_id: string;
  workspace_id: string;
  session_id: string;
  app: string;
  model: string;
  app_name: string;
  /** Its requests served (status success). */
  turns: number;
  cost: number;
  /** The UTC day of its latest request. */
  last_day: string;
}

/** Per organization, sessions' last day, workspace, app, model and turn range: the sessions and a sketch of their costs (migration 0043). */
export interface SessionCostDailyTable {
  organization_id: string;
  day: string;
  workspace_id: string;
  app: string;
  model: string;
  /** '1-turn', '2-9-turns', '10-49-turns' or '50-plus-turns'. */
  turn_range: string;
  /** The greatest app name of its sessions. */
  app_name: string;
  sessions: number;
  /** datasets/cost-sketch.ts's encoding. */
  costs: string;
}

/** The window's daily folds merged per organization, workspace, app, model and turn range, as of `window_end` (migration 0050). */
export interface SessionCostWindowTable extends Omit<SessionCostDailyTable, 'day'> {
  /** The last day of the window these rows merge. */
  window_end: string;
}

/** Per organization and day, the session_usage rows of that last day when it was folded, and when (migration 0043). */
export interface SessionCostFoldsTable {
  organization_id: string;
  day: string;
  parts: number;
  /** ISO 8601. */
  folded_at: string;
}

/** A sampled chat request's prompt features, until the classification pass counts it (migration 0042). */
export interface TaskSamplesTable {
  id: Generated<number>;
  organization_id: string;
  workspace_id: string;
  /** The request's UTC day, 'YYYY-MM-DD'. */
  day: string;
  model: string;
  /** prompt + completion tokens. */
  tokens: number;
  /** The auto-router's cue ids the prompt showed, joined by newlines (routing/auto-router/classify-task.ts); '' for none. */
  cues: string;
}

/** The classified samples by organization, UTC day, workspace, task and model (migration 0042). */
export interface TaskUsageDailyTable {
  organization_id: string;
  day: string;
  workspace_id: string;
  /** A TaskType. */
  task: string;
  model: string;
  requests: number;
  tokens: number;
}

/** usage_hourly's sums by UTC day (migration 0028), folded from the hours once a day is over (migration 0031): what queries over whole days read. */
export type UsageDailyTable = Omit<UsageHourlyTable, 'hour'> & {
  /** The day, 'YYYY-MM-DD' (UTC): a ledger row's created_at cut to 10 characters. */
  day: string;
};

/** How far usage_daily is complete (migration 0031): one row, id 1. */
export interface UsageDailyFoldsTable {
  id: number;
  /** The first day not folded yet, 'YYYY-MM-DD'; null before the first fold. */
  folded_before: string | null;
}

/** What an organization spent in all (migration 0021): the usage its credits are checked against. */
export interface OrganizationUsageTable {
  organization_id: string;
  usage: number;
}

/** Credits granted to an organization (migration 0022); written once, never changed: their sum is its total credits. */
export interface CreditGrantsTable {
  id: string;
  organization_id: string;
  /** USD; a negative grant corrects an earlier one. */
  amount_usd: number;
  note: string | null;
  /** Who granted: 'cli', or 'key:<hash>' for a management key. */
  granted_by: string;
  created_at: string;
}

/** A generation's prompt and completion, stored when its organization turned content storage on (migration 0023). */
export interface GenerationContentsTable {
  generation_id: string;
  organization_id: string;
  /** JSON: the request's messages. */
  input: string;
  completion: string | null;
  reasoning: string | null;
  /** 1 when a text was cut to the stored bound. */
  truncated: number;
  created_at: string;
}

/** A generation's content as written, beside its ledger row. */
export type GenerationContentRecord = Insertable<GenerationContentsTable>;

/** Feedback on a generation (migration 0024): the reference's categories and an optional comment. */
export interface GenerationFeedbackTable {
  id: string;
  organization_id: string;
  generation_id: string;
  /** The management key that sent it. */
  api_key_hash: string;
  category: string;
  comment: string | null;
  created_at: string;
}

/** A web console session; see migration 0029. */
export interface ConsoleSessionsTable {
  /** SHA-256 of the session id the cookie carries, hex. */
  id_hash: string;
  organization_id: string;
  /** The management key that signed in. */
  api_key_hash: string;
  created_at: string;
  /** Moved forward as the session is used; a session idle too long has ended. */
  last_seen_at: string;
  /** The latest a session lasts, however busy. */
  expires_at: string;
}

export interface Database {
  intern_programme: InternProgrammeTable;
  interns: InternsTable;
  intern_sessions: InternSessionsTable;
  intern_runs: InternRunsTable;
  intern_run_steps: InternRunStepsTable;
  intern_vault_secrets: InternVaultSecretsTable;
  intern_create_keys: InternCreateKeysTable;
  intern_run_inputs: InternRunInputsTable;
  vault_secrets: VaultSecretsTable;
  video_jobs: VideoJobsTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_budgets: WorkspaceBudgetsTable;
  workspace_usage: WorkspaceUsageTable;
  scim_tokens: ScimTokensTable;
  scim_users: ScimUsersTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
  scim_group_mappings: ScimGroupMappingsTable;
  api_keys: ApiKeysTable;
  apps: AppsTable;
  authorization_codes: AuthorizationCodesTable;
  generations: GenerationsTable;
  gateway_settings: GatewaySettingsTable;
  presets: PresetsTable;
  preset_versions: PresetVersionsTable;
  organization_settings: OrganizationSettingsTable;
  guardrails: GuardrailsTable;
  guardrail_assignments: GuardrailAssignmentsTable;
  usage_hourly: UsageHourlyTable;
  app_usage_daily: AppUsageDailyTable;
  session_usage: SessionUsageTable;
  task_samples: TaskSamplesTable;
  task_usage_daily: TaskUsageDailyTable;
  session_cost_daily: SessionCostDailyTable;
  session_cost_folds: SessionCostFoldsTable;
  session_cost_window: SessionCostWindowTable;
  usage_daily: UsageDailyTable;
  usage_daily_folds: UsageDailyFoldsTable;
  organization_usage: OrganizationUsageTable;
  credit_grants: CreditGrantsTable;
  generation_contents: GenerationContentsTable;
  generation_feedback: GenerationFeedbackTable;
  console_sessions: ConsoleSessionsTable;
  byok_credentials: ByokCredentialsTable;
  files: FilesTable;
  file_chunks: FileChunksTable;
  observability_destinations: ObservabilityDestinationsTable;
  destination_events: DestinationEventsTable;
  containers: ContainersTable;
  container_files: ContainerFilesTable;
}

/** A file uploaded to a workspace (migration 0038); its bytes are in the storage it names. */
export interface FilesTable {
  id: string;
  organization_id: string;
  workspace_id: string;
  filename: string;
  mime_type: string;
  size_bytes: number;
  /** As the client sent it (OpenAI's purposes), `user_data` when it sent none. */
  purpose: string;
  /** The storage holding its bytes: `directory`, `database` or `s3`. */
  storage: string;
  /** The key that uploaded it. */
  api_key_hash: string | null;
  created_at: string;
}

/** A chunk of a file's bytes in the `database` storage (migration 0038). */
export interface FileChunksTable {
  file_id: string;
  seq: number;
  data: Buffer;
}

/** Where a workspace's generations are broadcast (migration 0039); JSON columns as text, booleans as 0/1. */
export interface ObservabilityDestinationsTable {
  id: string;
  organization_id: string;
  workspace_id: string;
  type: string;
  name: string;
  /** The config's JSON, sealed under the vault key: it holds write-only secrets. */
  config_sealed: string;
  enabled: number;
  api_key_hashes: string | null;
  sampling_rate: number;
  privacy_mode: number;
  filter_rules: string | null;
  broadcast_generation_cost: number;
  broadcast_generation_identity: number;
  broadcast_generation_request_context: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** The instance sending this destination's events, until when (ISO): one sender at a time keeps them in order. */
  lease_owner: Generated<string | null>;
  lease_until: Generated<string | null>;
  /** After a failure, no send before this (ISO). */
  retry_at: Generated<string | null>;
  /** Failures since the last success: the backoff's exponent. */
  failures: Generated<number>;
  last_success_at: Generated<string | null>;
  last_error: Generated<string | null>;
}

/** The destinations' outbox: one row per generation and destination, in the ledger's transaction; dead letters keep `dead_at`. */
export interface DestinationEventsTable {
  id: Generated<number>;
  destination_id: string;
  generation_id: string;
  created_at: string;
  attempts: Generated<number>;
  dead_at: Generated<string | null>;
  last_error: Generated<string | null>;
}

/** A workspace's sandbox where the code_interpreter tool runs code (migration 0048). */
export interface ContainersTable {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  /** The key that made it. */
  api_key_hash: string | null;
  created_at: string;
  /** Its last run (or its creation): it expires 30 days after. */
  last_active_at: string;
}

/** A file in a container's work directory (migration 0048); its bytes are on disk, under CONTAINERS_DIR. */
export interface ContainerFilesTable {
  id: string;
  container_id: string;
  workspace_id: string;
  /** Under the work directory, '/'-separated. */
  path: string;
  bytes: number;
  /** `assistant`: the code wrote it. */
  source: string;
  created_at: string;
  updated_at: string;
}
