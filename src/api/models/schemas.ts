import { Type } from 'typebox';
import { PageQuery } from '../../http/schema-helpers.js';

export const MAX_PAGE_SIZE = 1000;

export const ListModelsQuery = PageQuery(MAX_PAGE_SIZE);

export const ModelEndpointsParams = Type.Object({
  author: Type.String({ minLength: 1 }),
  slug: Type.String({ minLength: 1 }),
});
