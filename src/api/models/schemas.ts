import { Type } from 'typebox';
import { PageOffset } from '../../http/schema-helpers.js';

export const MAX_PAGE_SIZE = 1000;

export const ListModelsQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
});

export const ModelEndpointsParams = Type.Object({
  author: Type.String({ minLength: 1 }),
  slug: Type.String({ minLength: 1 }),
});
