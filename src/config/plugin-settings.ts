import type { GatewayConfig } from './gateway-config-schema.js';

/** What the web, web-fetch and file-parser plugins need from the operator. */
export interface PluginSettings {
  /** CIDR ranges that fetches for models may reach although they are not public (an intranet on purpose). */
  allowPrivateRanges: readonly string[];
  /** The Exa search API, when a key is configured. */
  exa?: { baseUrl: string; apiKey: string; timeoutMs: number };
}

export const EXA_BASE_URL = 'https://api.exa.ai';
const EXA_TIMEOUT_MS = 15_000;

/** From the config file's `network` and `web_search`, else `EXA_API_KEY` (and `EXA_BASE_URL`) in the environment. */
export function pluginSettings(config: GatewayConfig | undefined, env: NodeJS.ProcessEnv): PluginSettings {
  const configured = config?.web_search?.exa;
  const apiKey = configured?.api_key ?? (env.EXA_API_KEY || undefined);
  return {
    allowPrivateRanges: config?.network?.allow_private_ranges ?? [],
    ...(apiKey
      ? {
          exa: {
            baseUrl: configured?.base_url ?? (env.EXA_BASE_URL || EXA_BASE_URL),
            apiKey,
            timeoutMs: configured?.timeout_ms ?? EXA_TIMEOUT_MS,
          },
        }
      : {}),
  };
}
