import { CatalogError } from '../catalog/catalog-error.js';
import type { Catalog } from '../catalog/types.js';
import type { ModerationConfig } from '../config/gateway-config-schema.js';
import type { ModerationAdapter } from '../protocol/adapters.js';
import type { ModerationProvider } from './moderation-stage.js';

/** OpenAI's current moderation model. */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

/** The built-in catalog's provider the moderation plugin uses when OPENAI_API_KEY enables it. */
const BUILTIN_MODERATION_PROVIDER = 'openai';

/**
 * The moderation plugin's provider: the config file's `moderation` section,
 * else (built-in catalog only) OpenAI when its key is set, else none.
 * A section naming a provider that is absent or of a kind with no
 * moderation adapter stops the server at start.
 */
export function resolveModerationProvider(
  config: ModerationConfig | undefined,
  catalog: Catalog,
  adapters: Readonly<Record<string, ModerationAdapter>>,
  builtinCatalog: boolean,
): ModerationProvider | undefined {
  const providerId = config?.provider ?? (builtinCatalog ? BUILTIN_MODERATION_PROVIDER : undefined);
  if (providerId === undefined) return undefined;
  const provider = catalog.providers.get(providerId);
  if (!provider) {
    if (!config) return undefined;
    throw new CatalogError(`moderation.provider "${providerId}" is not a provider of the catalog`);
  }
  const adapter = adapters[provider.kind];
  if (!adapter) {
    throw new CatalogError(
      `moderation.provider "${providerId}" is of kind "${provider.kind}", which has no moderation API (kinds that do: ${Object.keys(adapters).join(', ')})`,
    );
  }
  return {
    adapter,
    target: {
      providerId: provider.id,
      kind: provider.kind,
      baseUrl: provider.baseUrl,
      ...(provider.apiKey !== undefined ? { apiKey: provider.apiKey } : {}),
      ...(provider.headers !== undefined ? { headers: { ...provider.headers } } : {}),
      upstreamModel: config?.model ?? DEFAULT_MODERATION_MODEL,
      timeoutMs: provider.timeoutMs,
    },
  };
}
