/** OpenAI's `POST /v1/moderations` body, as this gateway sends it (text inputs). */
export interface OpenAIModerationRequest {
  model: string;
  input: string[];
}

/** The categories of `omni-moderation-latest`, as its results key them. */
export const OPENAI_MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;
