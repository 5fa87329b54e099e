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
