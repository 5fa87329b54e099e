import { InvalidArgumentError } from 'commander';
import { toGenerationRecord } from '../api/generation/generation-record.js';
import type { Store } from '../store/database.js';
import { organizationReach } from '../store/reach.js';
import { findGeneration } from '../store/repositories/generations.js';
import { formatFields, formatJson } from './output.js';

/** `model-gateway generations show ID`: the ledger's record of one generation of the default organization, as `GET /generation?id=` answers it. */
export async function showGeneration(store: Store, organizationId: string, id: string, json: boolean): Promise<string> {
  const row = await findGeneration(store.db, organizationReach(organizationId), id);
  if (!row) throw new InvalidArgumentError(`generation ${id} not found`);
  const record = toGenerationRecord(row);
  return json ? formatJson({ data: record }) : formatFields(record);
}
