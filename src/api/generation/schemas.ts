import { Type } from 'typebox';
import { StringEnum } from '../../http/schema-helpers.js';

/** GET /generation and GET /generation/content: the generation's id. */
export const GenerationQuery = Type.Object({ id: Type.String({ minLength: 1 }) });

/** The reference's feedback categories. */
export const FEEDBACK_CATEGORIES = ['latency', 'incoherence', 'incorrect_response', 'formatting', 'billing', 'api_error', 'other'] as const;

/** POST /generation/feedback (the reference's SubmitGenerationFeedbackRequest). */
export const GenerationFeedbackBody = Type.Object(
  {
    generation_id: Type.String({ minLength: 1, maxLength: 256 }),
    category: StringEnum(FEEDBACK_CATEGORIES),
    comment: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

/** The most rows a page of GET /generations holds, and how deep its offset may go (narrow by date to go further back). */
export const GENERATIONS_PAGE_MAX = 100;
export const GENERATIONS_OFFSET_MAX = 10_000;

/** GET /generations: an organization's ledger, newest first, filtered. */
export const ListGenerationsQuery = Type.Object(
  {
    api_key_hash: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    status: Type.Optional(StringEnum(['success', 'error', 'cancelled'])),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: GENERATIONS_OFFSET_MAX })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: GENERATIONS_PAGE_MAX })),
  },
  { additionalProperties: false },
);
