import { CatalogError } from './catalog-error.js';
import { type ModelTask, modelTask } from './model-task.js';
import type { Catalog } from './types.js';

/**
 * Refuses, at start, an endpoint whose provider kind has no adapter for its
 * model's task (a rerank model on an `openai` provider, a chat model on a
 * `cohere` one), which would otherwise fail every request sent to it.
 */
export function assertServable(catalog: Catalog, kindsByTask: Readonly<Partial<Record<ModelTask, readonly string[]>>>): void {
  for (const model of catalog.listModels()) {
    const task = modelTask(model);
    const kinds = kindsByTask[task] ?? [];
    for (const endpoint of model.endpoints) {
      const kind = catalog.providers.get(endpoint.provider)?.kind;
      if (kind === undefined || kinds.includes(kind)) continue;
      throw new CatalogError(
        `model "${model.id}" is a ${task} model, but its provider "${endpoint.provider}" is of kind "${kind}", ` +
          `which does not serve ${task} (kinds that do: ${kinds.join(', ')})`,
      );
    }
  }
}
