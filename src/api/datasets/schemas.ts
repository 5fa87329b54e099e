import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schema-helpers.js';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** The reference's marketplace categories and subcategories (app-rankings); this gateway tags no app with one. */
export const APP_CATEGORIES = ['coding', 'creative', 'productivity', 'entertainment'] as const;
export const APP_SUBCATEGORIES = [
  'cli-agent',
  'ide-extension',
  'cloud-agent',
  'programming-app',
  'native-app-builder',
  'creative-writing',
  'video-gen',
  'image-gen',
  'audio-gen',
  'roleplay',
  'game',
  'writing-assistant',
  'general-chat',
  'personal-agent',
  'legal',
] as const;

/** GET /datasets/app-rankings's query string, with the reference's bounds. */
export const AppRankingsQuery = Type.Object({
  category: Type.Optional(StringEnum(APP_CATEGORIES)),
  subcategory: Type.Optional(StringEnum(APP_SUBCATEGORIES)),
  sort: Type.Optional(StringEnum(['popular', 'trending'])),
  start_date: Type.Optional(Day),
  end_date: Type.Optional(Day),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100 }))),
});

export const MODALITIES = ['text', 'image', 'image_output', 'audio', 'tool_calling'] as const;

/** GET /datasets/rankings-daily's query string. */
export const RankingsDailyQuery = Type.Object({
  start_date: Type.Optional(Day),
  end_date: Type.Optional(Day),
  period: Type.Optional(StringEnum(['day', 'week', 'month'])),
  modality: Type.Optional(StringEnum(MODALITIES)),
  context_bucket: Type.Optional(StringEnum(['1K', '10K', '100K', '1M', '10M'])),
  category: Type.Optional(
    StringEnum([
      'programming',
      'roleplay',
      'marketing',
      'marketing/seo',
      'technology',
      'science',
      'translation',
      'legal',
      'finance',
      'health',
      'trivia',
      'academia',
    ]),
  ),
  language_type: Type.Optional(StringEnum(['natural', 'programming'])),
});

/** GET /datasets/session-cost's query string. */
export const SessionCostQuery = Type.Object({
  app_slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  turn_range: Type.Optional(StringEnum(['1-turn', '2-9-turns', '10-49-turns', '50-plus-turns'])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 5000 }))),
});
