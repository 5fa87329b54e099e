import { CONTAINER_IDLE_DAYS } from '../../containers/container-settings.js';
import { SANDBOX_WORK_DIR } from '../../containers/sandbox/bwrap-args.js';
import type { ContainerFileRow, ContainerRow } from '../../store/repositories/containers.js';

const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** A container as OpenAI's containers API answers it (times in Unix seconds), with the workspace it belongs to. */
export const toContainerRecord = (row: ContainerRow) => ({
  id: row.id,
  object: 'container' as const,
  name: row.name,
  status: 'running' as const,
  created_at: unixSeconds(row.created_at),
  last_active_at: unixSeconds(row.last_active_at),
  expires_after: { anchor: 'last_active_at' as const, minutes: CONTAINER_IDLE_DAYS * 24 * 60 },
  workspace_id: row.workspace_id,
});

/** A file of a container as OpenAI's answers it: its path as the code sees it. */
export const toContainerFileRecord = (row: ContainerFileRow) => ({
  id: row.id,
  object: 'container.file' as const,
  container_id: row.container_id,
  path: `${SANDBOX_WORK_DIR}/${row.path}`,
  bytes: Number(row.bytes),
  source: row.source,
  created_at: unixSeconds(row.created_at),
});
