import { Type } from 'typebox';
import { PageQuery } from '../../http/schema-helpers.js';

export const MAX_PAGE_SIZE = 1000;

export const ListModelsQuery = PageQuery(MAX_PAGE_SIZE);

export const ModelEndpointsParams = Type.Object({
  author: Type.String({ minLength: 1 }),
  slug: Type.String({ minLength: 1 }),
});

export const ModelsCountQuery = Type.Object({
  /** Comma-separated output modalities, or "all"; read by readOutputModalities, which names the field when it refuses one. */
  output_modalities: Type.Optional(Type.String({ maxLength: 200 })),
});
