import type { Generated, Insertable } from 'kysely';

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
}

export type LimitReset = 'daily' | 'weekly' | 'monthly';

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
  user_agent: string | null;
  created_at: string;
  /** The generation this one was an inner call of (fusion panelists and analyst); null for a client's own request. */
  parent_generation_id: string | null;
  /** The intern run whose model call this was; null otherwise. */
  intern_run_id: Generated<string | null>;
  /** 1 when the token counts are the gateway's own (accounting/check-usage.ts), 0 when the upstream's. */
  usage_estimated: Generated<number>;
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
  /** JSON: the endpoints ({provider, upstream_model}) still to try, in plan order. */
  fallbacks: Generated<string>;
  /** USD held against the key's limits while the job runs (the most it can cost), and until when (ISO time). */
  reserved_usd: number | null;
  reserved_until: string | null;
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
  /** AES-256-GCM of the value (api/vault/secret-box.ts); the value is never returned. */
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

/** Sums of the ledger by organization, UTC hour, workspace, key, model and provider (migration 0021), kept with each ledger write. */
export interface UsageHourlyTable {
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
  tokens_prompt: number;
  tokens_completion: number;
  tokens_reasoning: number;
  tokens_cached: number;
  cost: number;
  /** Sum and number of the rows' latency_ms (rows without one count in neither). */
  latency_ms_sum: number;
  latency_count: number;
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
  usage_daily: UsageDailyTable;
  usage_daily_folds: UsageDailyFoldsTable;
  organization_usage: OrganizationUsageTable;
  credit_grants: CreditGrantsTable;
  generation_contents: GenerationContentsTable;
  generation_feedback: GenerationFeedbackTable;
  console_sessions: ConsoleSessionsTable;
}
