import type { ChatRequest } from '../protocol/chat.js';
import type { Workspace } from '../store/repositories/workspaces.js';

/** What a workspace fills in on its keys' requests (the reference's default_* fields); null where it sets nothing. */
export interface WorkspaceDefaults {
  textModel: string | null;
  imageModel: string | null;
  providerSort: string | null;
}

export const NO_WORKSPACE_DEFAULTS: WorkspaceDefaults = { textModel: null, imageModel: null, providerSort: null };

export const toWorkspaceDefaults = (row: Workspace | undefined): WorkspaceDefaults =>
  row
    ? { textModel: row.default_text_model, imageModel: row.default_image_model, providerSort: row.default_provider_sort }
    : NO_WORKSPACE_DEFAULTS;

/** The request with the workspace's provider sort where it sets none (an explicit null keeps no sort). */
export function applyWorkspaceSort(request: ChatRequest, defaults: WorkspaceDefaults): ChatRequest {
  if (defaults.providerSort === null || request.provider?.sort !== undefined) return request;
  return { ...request, provider: { ...request.provider, sort: defaults.providerSort } };
}
