import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { Engine } from '../database.js';
import * as foundation from './0001-foundation.js';
import * as generations from './0002-generations.js';
import * as gatewaySettings from './0003-gateway-settings.js';
import * as presets from './0004-presets.js';
import * as videoJobs from './0005-video-jobs.js';
import * as organizationSettings from './0006-organization-settings.js';
import * as guardrails from './0007-guardrails.js';
import * as videoJobFallbacks from './0009-video-job-fallbacks.js';
import * as generationParent from './0011-generation-parent.js';
import * as interns from './0012-interns.js';
import * as internInteractionDeadline from './0013-intern-interaction-deadline.js';
import * as internCreateKeys from './0014-intern-create-keys.js';
import * as internRunInputs from './0015-intern-run-inputs.js';
import * as generationsPartialIndexes from './0016-generations-partial-indexes.js';
import * as generationsUnreadIndexes from './0017-generations-unread-indexes.js';
import * as generationUsageEstimated from './0018-generation-usage-estimated.js';
import * as videoJobReservations from './0019-video-job-reservations.js';
import * as authorizationCodeCreator from './0020-authorization-code-creator.js';
import * as usageRollups from './0021-usage-rollups.js';
import * as creditGrants from './0022-credit-grants.js';
import * as generationContents from './0023-generation-contents.js';
import * as generationFeedback from './0024-generation-feedback.js';
import * as generationErrorName from './0025-generation-error-name.js';
import * as usageDaily from './0028-usage-daily.js';
import * as consoleSessions from './0029-console-sessions.js';
import * as generationsListIndexes from './0030-generations-list-indexes.js';
import * as usageDailyFolds from './0031-usage-daily-folds.js';
import * as workspaces from './0032-workspaces.js';
import * as workspaceUsage from './0034-workspace-usage.js';
import * as scim from './0035-scim.js';
import * as usageErrorClasses from './0036-usage-error-classes.js';
import * as byokCredentials from './0037-byok-credentials.js';
import * as files from './0038-files.js';
import * as observabilityDestinations from './0039-observability-destinations.js';
import * as datasetRollups from './0041-dataset-rollups.js';
import * as taskClassifications from './0042-task-classifications.js';
import * as sessionCostDaily from './0043-session-cost-daily.js';
import * as usageLatencySketch from './0044-usage-latency-sketch.js';
import * as workspacePresets from './0045-workspace-presets.js';
import * as containers from './0048-containers.js';
import * as videoJobCredentials from './0049-video-job-credentials.js';
import * as sessionCostWindow from './0050-session-cost-window.js';

interface EngineMigration {
  up(db: Kysely<unknown>, engine: Engine): Promise<void>;
}

// Listed here, not read from disk, so the same list works from src/ under vitest and from dist/.
const migrations: Record<string, EngineMigration> = {
  '0001-foundation': foundation,
  '0002-generations': generations,
  '0003-gateway-settings': gatewaySettings,
  '0004-presets': presets,
  '0005-video-jobs': videoJobs,
  '0006-organization-settings': organizationSettings,
  '0007-guardrails': guardrails,
  '0009-video-job-fallbacks': videoJobFallbacks,
  '0011-generation-parent': generationParent,
  '0012-interns': interns,
  '0013-intern-interaction-deadline': internInteractionDeadline,
  '0014-intern-create-keys': internCreateKeys,
  '0015-intern-run-inputs': internRunInputs,
  '0016-generations-partial-indexes': generationsPartialIndexes,
  '0017-generations-unread-indexes': generationsUnreadIndexes,
  '0018-generation-usage-estimated': generationUsageEstimated,
  '0019-video-job-reservations': videoJobReservations,
  '0020-authorization-code-creator': authorizationCodeCreator,
  '0021-usage-rollups': usageRollups,
  '0022-credit-grants': creditGrants,
  '0023-generation-contents': generationContents,
  '0024-generation-feedback': generationFeedback,
  '0025-generation-error-name': generationErrorName,
  '0028-usage-daily': usageDaily,
  '0029-console-sessions': consoleSessions,
  '0030-generations-list-indexes': generationsListIndexes,
  '0031-usage-daily-folds': usageDailyFolds,
  '0032-workspaces': workspaces,
  '0034-workspace-usage': workspaceUsage,
  '0035-scim': scim,
  '0036-usage-error-classes': usageErrorClasses,
  '0037-byok-credentials': byokCredentials,
  '0038-files': files,
  '0039-observability-destinations': observabilityDestinations,
  '0041-dataset-rollups': datasetRollups,
  '0042-task-classifications': taskClassifications,
  '0043-session-cost-daily': sessionCostDaily,
  '0044-usage-latency-sketch': usageLatencySketch,
  '0045-workspace-presets': workspacePresets,
  '0048-containers': containers,
  '0049-video-job-credentials': videoJobCredentials,
  '0050-session-cost-window': sessionCostWindow,
};

export function migrationProvider(engine: Engine): MigrationProvider {
  return {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(migrations)) out[name] = { up: (db) => m.up(db, engine) };
      return out;
    },
  };
}
