import { BUILTIN_PROVIDERS } from '../catalog/builtin/index.js';
import { LOCAL_SERVER_VARIABLES } from '../catalog/local-servers.js';
import { type ModelTask, modelTask } from '../catalog/model-task.js';
import type { Model } from '../catalog/types.js';

const TASKS: readonly ModelTask[] = ['chat', 'rerank', 'embeddings', 'image', 'speech', 'transcription', 'video'];

/** "3 chat, 1 rerank": the enabled models by what they are called for, tasks without any left out. */
export function modelsByTask(models: readonly Pick<Model, 'architecture'>[]): string {
  const counts = TASKS.map((task) => [task, models.filter((model) => modelTask(model) === task).length] as const);
  const present = counts.filter(([, count]) => count > 0);
  return present.length === 0 ? 'no models' : present.map(([task, count]) => `${count} ${task}`).join(', ');
}

/**
 * Said at start when no chat model is enabled: what would enable one (the
 * variables' names, never values) and the command that tries the gateway on
 * the simulator instead.
 */
export function noChatModelHint(models: readonly Pick<Model, 'architecture'>[], knownKinds: readonly string[]): string | undefined {
  if (models.some((model) => modelTask(model) === 'chat')) return undefined;
  const keys = BUILTIN_PROVIDERS.filter((provider) => knownKinds.includes(provider.kind)).map((provider) =>
    provider.apiKeyEnv.join(' or '),
  );
  return (
    'No chat model is enabled. Enable providers with their API key in the environment ' +
    `(${keys.join(', ')}), a local server with its base URL (${LOCAL_SERVER_VARIABLES.join(', ')}), ` +
    'or providers and models in a config file (GATEWAY_CONFIG, ./gateway.yaml by default). ' +
    'To try the gateway without any: npm run demo'
  );
}
