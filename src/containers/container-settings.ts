import { SANDBOX_PROGRAMS, type SandboxPrograms } from './sandbox/run-in-sandbox.js';
import { SANDBOX_DEFAULTS, type SandboxLimits } from './sandbox/sandbox-limits.js';

/** What the operator charges for code runs, in USD (docs/containers.md, "Pricing"). */
export interface ContainerPricing {
  /** Once per container per request that runs code in it (CONTAINERS_PRICE_PER_SESSION). */
  perSession: number;
  /** Per started second of each run's wall-clock time (CONTAINERS_PRICE_PER_SECOND). */
  perSecond: number;
}

/** Where containers live, what runs them and their caps (docs/containers.md, "Settings"). */
export interface ContainerSettings {
  /** CONTAINERS_DIR: a directory per container under it. */
  directory: string;
  /** CONTAINERS_BWRAP and CONTAINERS_PYTHON. */
  programs: SandboxPrograms;
  /** CONTAINERS_CPU_SECONDS, CONTAINERS_TIMEOUT_MS, CONTAINERS_MEMORY_BYTES, CONTAINERS_DISK_BYTES, CONTAINERS_MAX_PROCESSES, CONTAINERS_OUTPUT_BYTES. */
  limits: SandboxLimits;
  pricing: ContainerPricing;
}

export const CONTAINER_DEFAULTS: ContainerSettings = {
  directory: './data/containers',
  programs: SANDBOX_PROGRAMS,
  limits: SANDBOX_DEFAULTS,
  pricing: { perSession: 0, perSecond: 0 },
};

/** A container unused this long is deleted with its files. */
export const CONTAINER_IDLE_DAYS = 30;
