import { assertServable } from '../catalog/assert-servable.js';
import { buildCatalog } from '../catalog/build-catalog.js';
import { declaresCatalog } from '../catalog/from-config.js';
import { loadGatewayConfig } from '../config/load-gateway-config.js';
import { resolveModerationProvider } from '../plugins/moderation-provider.js';
import { KINDS_BY_TASK, MODERATION_ADAPTERS, PROVIDER_KINDS } from '../providers/registry.js';
import { modelsByTask } from './start-banner.js';

/** The file `config check` reads when none is named: the one `serve` reads. */
export const configCheckPath = (env: NodeJS.ProcessEnv): string => env.GATEWAY_CONFIG || './gateway.yaml';

/**
 * `model-gateway config check [FILE]`: what `serve` checks of a config file
 * before it starts, without starting: the file (a ConfigError naming
 * file:line:col), then the catalog it declares, its moderation provider and
 * that an adapter serves each model (a CatalogError). Local servers named in
 * the environment are not asked for their models. A one-line summary when
 * the file is good.
 */
export function checkConfigFile(path: string, env: NodeJS.ProcessEnv): string {
  const config = loadGatewayConfig(path, { knownKinds: PROVIDER_KINDS }, env);
  const catalog = buildCatalog({ config, env, knownKinds: PROVIDER_KINDS });
  resolveModerationProvider(config.moderation, catalog, MODERATION_ADAPTERS, !declaresCatalog(config));
  assertServable(catalog, KINDS_BY_TASK);
  const models = modelsByTask(catalog.listModels());
  const source = declaresCatalog(config)
    ? `${config.providers?.length ?? 0} providers`
    : 'no providers declared (the environment enables them)';
  return `${path}: valid; ${source}; models: ${models}\n`;
}
