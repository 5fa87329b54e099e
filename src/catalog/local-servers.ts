import { DEFAULT_TIMEOUT_MS, TEXT_ONLY } from './defaults.js';
import { envBaseUrl, envValue } from './env.js';
import type { Endpoint, Model, Provider } from './types.js';

/** A model a local server reported; vLLM also reports its context length. */
export interface LocalModel {
  id: string;
  contextLength?: number;
}

interface LocalServerDefinition {
  /** Also the vendor part of its model ids: `ollama/llama3.2`, `local/qwen3-8b`. */
  id: string;
  name: string;
  /** The first one set is used. */
  baseUrlEnv: readonly string[];
  apiKeyEnv: readonly string[];
}

const LOCAL_SERVERS: readonly LocalServerDefinition[] = [
  { id: 'ollama', name: 'Ollama', baseUrlEnv: ['OLLAMA_BASE_URL'], apiKeyEnv: [] },
  {
    id: 'local',
    name: 'Local',
    baseUrlEnv: ['VLLM_BASE_URL', 'OPENAI_COMPATIBLE_BASE_URL'],
    apiKeyEnv: ['VLLM_API_KEY', 'OPENAI_COMPATIBLE_API_KEY'],
  },
];

/** The variables that enable a local server, for a start that has no chat model to name them. */
export const LOCAL_SERVER_VARIABLES: readonly string[] = LOCAL_SERVERS.flatMap((server) => server.baseUrlEnv);

/** OpenAI-compatible servers on the user's own machines, enabled by their base URL alone. */
export function localServers(env: NodeJS.ProcessEnv, knownKinds: readonly string[]): Provider[] {
  if (!knownKinds.includes('openai')) return [];
  return LOCAL_SERVERS.flatMap((server) => {
    const baseUrl = envBaseUrl(env, server.baseUrlEnv);
    if (!baseUrl) return [];
    const apiKey = envValue(env, server.apiKeyEnv)?.value;
    return [{ id: server.id, name: server.name, kind: 'openai', baseUrl, ...(apiKey ? { apiKey } : {}), timeoutMs: DEFAULT_TIMEOUT_MS }];
  });
}

/** A local model: free, because the user runs the hardware; zero is written so accounting sees a price. */
export function localModel(server: Provider, reported: LocalModel): Model {
  const endpoint: Endpoint = {
    provider: server.id,
    upstreamModel: reported.id,
    pricing: { prompt: 0, completion: 0 },
    ...(reported.contextLength !== undefined ? { contextLength: reported.contextLength } : {}),
  };
  return {
    id: `${server.id}/${reported.id}`,
    name: `${server.name}: ${reported.id}`,
    // Not the base URL: /models may be public, and it would reveal internal hosts.
    description: `${reported.id}, served by a local ${server.name} server.`,
    created: 0,
    ...(reported.contextLength !== undefined ? { contextLength: reported.contextLength } : {}),
    architecture: TEXT_ONLY,
    endpoints: [endpoint],
  };
}
