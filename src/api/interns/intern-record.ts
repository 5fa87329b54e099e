import { type InternSettings, parseInternSettings } from '../../interns/intern-settings.js';
import type { InternRow } from '../../store/repositories/interns.js';

/** The SDK's Intern on the wire (snake_case), plus our `settings`. */
export interface InternRecord {
  attached_vault_id: string | null;
  created_at: string;
  description: string | null;
  hostname: string | null;
  id: string;
  instructions: string | null;
  last_failure_message: string | null;
  model: string | null;
  name: string;
  progress: { step_label: string; step_number: number; total_steps: number } | null;
  status: InternRow['status'];
  updated_at: string;
  vault_id: string | null;
  workspace_id: string;
  settings: InternSettings;
}

function parseProgress(json: string | null): InternRecord['progress'] {
  if (!json) return null;
  try {
    const p = JSON.parse(json) as Record<string, unknown>;
    if (typeof p.step_label === 'string' && typeof p.step_number === 'number' && typeof p.total_steps === 'number') {
      return { step_label: p.step_label, step_number: p.step_number, total_steps: p.total_steps };
    }
  } catch {
    // A progress we cannot read is shown as none.
  }
  return null;
}

export function toInternRecord(row: InternRow): InternRecord {
  return {
    // The vault is attached to the intern's process only while it runs.
    attached_vault_id: row.status === 'running' ? row.vault_id : null,
    created_at: row.created_at,
    description: row.description,
    hostname: null,
    id: row.id,
    instructions: row.instructions,
    last_failure_message: row.last_failure_message,
    model: row.model,
    name: row.name,
    progress: row.status === 'provisioning' ? parseProgress(row.progress) : null,
    status: row.status,
    updated_at: row.updated_at,
    vault_id: row.vault_id,
    workspace_id: row.workspace_id,
    settings: parseInternSettings(row.settings),
  };
}

/** The opaque `next_cursor`: the (created_at, id) of a page's last intern. */
export function encodeCursor(row: Pick<InternRow, 'created_at' | 'id'>): string {
  return Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');
}

/** undefined when the cursor is not one we issued (a 400 for the caller). */
export function decodeCursor(cursor: string): { createdAt: string; id: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      !Number.isNaN(Date.parse(value[0]))
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // Falls through to undefined.
  }
  return undefined;
}
