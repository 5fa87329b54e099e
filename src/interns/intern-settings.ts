/** interns.settings (JSON) as the runtime reads it, defaults filled in. */
export interface InternSettings {
  allowed_domains: string[];
  webhook_url: string | null;
  fallback_answer: string;
  deadline_seconds: number;
  /** How long a manual run's question or approval waits for its answer before the run is cancelled. */
  interaction_deadline_seconds: number;
  max_open_questions: number;
  turns_per_minute: number | null;
  /** Built-in tools enabled: http_fetch, notify, ask_question. */
  tools: string[];
}

export const BUILT_IN_TOOLS = ['http_fetch', 'notify', 'ask_question'] as const;

export const INTERN_SETTING_DEFAULTS: InternSettings = {
  allowed_domains: [],
  webhook_url: null,
  fallback_answer: 'No one is available to answer; decide on your own and say what you assumed.',
  deadline_seconds: 3600,
  // The SDK: a question stays open for its interaction deadline, 5 minutes by default.
  interaction_deadline_seconds: 300,
  max_open_questions: 1,
  turns_per_minute: null,
  tools: [...BUILT_IN_TOOLS],
};

/** Reads the stored JSON leniently: a missing or mistyped field takes its default (the API validated what it stored). */
export function parseInternSettings(json: string | null | undefined): InternSettings {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = json ? JSON.parse(json) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) raw = parsed as Record<string, unknown>;
  } catch {
    // Defaults stand.
  }
  const d = INTERN_SETTING_DEFAULTS;
  const strings = (value: unknown) => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined);
  const positive = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined);
  return {
    allowed_domains: strings(raw.allowed_domains) ?? d.allowed_domains,
    webhook_url: typeof raw.webhook_url === 'string' && raw.webhook_url !== '' ? raw.webhook_url : d.webhook_url,
    fallback_answer: typeof raw.fallback_answer === 'string' && raw.fallback_answer !== '' ? raw.fallback_answer : d.fallback_answer,
    deadline_seconds: positive(raw.deadline_seconds) ?? d.deadline_seconds,
    interaction_deadline_seconds: positive(raw.interaction_deadline_seconds) ?? d.interaction_deadline_seconds,
    max_open_questions: positive(raw.max_open_questions) ?? d.max_open_questions,
    turns_per_minute: positive(raw.turns_per_minute) ?? d.turns_per_minute,
    tools: strings(raw.tools) ?? d.tools,
  };
}
