import { CONTAINER_DEFAULTS, type ContainerSettings } from '../containers/container-settings.js';
import { SettingsError } from './settings-error.js';

/** A number from the environment at least `min` (whole when asked), or the default when the variable is unset or empty. */
function numberSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, { min, whole }: { min: number; whole: boolean }): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || (whole && !Number.isSafeInteger(value)))
    throw new SettingsError(`${name} must be a ${whole ? 'whole number' : 'number'} of at least ${min} (got "${env[name]}")`);
  return value;
}

const count = (env: NodeJS.ProcessEnv, name: string, fallback: number) => numberSetting(env, name, fallback, { min: 1, whole: true });
const usd = (env: NodeJS.ProcessEnv, name: string, fallback: number) => numberSetting(env, name, fallback, { min: 0, whole: false });

/** CONTAINERS_*: where containers live, their sandbox's programs and caps, and the operator's prices (docs/containers.md, "Settings"). */
export function readContainerSettings(env: NodeJS.ProcessEnv): ContainerSettings {
  const { limits, programs, pricing } = CONTAINER_DEFAULTS;
  return {
    directory: env.CONTAINERS_DIR?.trim() || CONTAINER_DEFAULTS.directory,
    programs: {
      ...programs,
      bwrap: env.CONTAINERS_BWRAP?.trim() || programs.bwrap,
      python: env.CONTAINERS_PYTHON?.trim() || programs.python,
    },
    limits: {
      cpuSeconds: count(env, 'CONTAINERS_CPU_SECONDS', limits.cpuSeconds),
      wallMs: count(env, 'CONTAINERS_TIMEOUT_MS', limits.wallMs),
      memoryBytes: count(env, 'CONTAINERS_MEMORY_BYTES', limits.memoryBytes),
      diskBytes: count(env, 'CONTAINERS_DISK_BYTES', limits.diskBytes),
      processes: count(env, 'CONTAINERS_MAX_PROCESSES', limits.processes),
      outputBytes: count(env, 'CONTAINERS_OUTPUT_BYTES', limits.outputBytes),
    },
    pricing: {
      perSession: usd(env, 'CONTAINERS_PRICE_PER_SESSION', pricing.perSession),
      perSecond: usd(env, 'CONTAINERS_PRICE_PER_SECOND', pricing.perSecond),
    },
  };
}
