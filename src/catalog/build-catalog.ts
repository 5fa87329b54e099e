import type { GatewayConfig } from '../config/gateway-config-schema.js';
import { createCatalog } from './create-catalog.js';
import { catalogFromConfig, declaresCatalog } from './from-config.js';
import { catalogFromEnvironment } from './from-environment.js';
import type { LocalModel } from './local-servers.js';
import type { Catalog } from './types.js';

export interface CatalogInputs {
  /** The validated config file, when there is one. */
  config?: GatewayConfig;
  env: NodeJS.ProcessEnv;
  /** Provider kinds that an adapter speaks. */
  knownKinds: readonly string[];
  /** What each local server (by provider id: "ollama", "local") reported at start; see discoverLocalModels. */
  localModels?: Readonly<Record<string, readonly LocalModel[]>>;
}

/**
 * The model catalog: exactly what the config file declares when it declares
 * providers or models, otherwise the built-in table as the environment enables it.
 * Throws CatalogError when it cannot be built.
 */
export function buildCatalog({ config, env, knownKinds, localModels }: CatalogInputs): Catalog {
  return createCatalog(declaresCatalog(config) ? catalogFromConfig(config) : catalogFromEnvironment(env, knownKinds, localModels));
}
