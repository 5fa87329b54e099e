import type { FastifyReply, FastifyRequest } from 'fastify';
import { FUSION_MODEL, startFusionRun } from '../../chat/fusion-run.js';
import { prepareReservedChat } from '../../chat/reserve-chat-run.js';
import type { ChatRun, NativeMessagesRequest } from '../../chat/run.js';
import type { ChatServices } from '../../chat/run-services.js';
import { startChatRun } from '../../chat/start-run.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Shutdown } from '../../http/shutdown.js';
import { applyOrganizationDefaults } from '../../organization-settings/apply-organization-defaults.js';
import type { ChatRequest } from '../../protocol/chat.js';
import { routerModelOf } from '../../routing/routers/route-models.js';
import { applyWorkspaceSort } from '../../workspaces/workspace-defaults.js';
import { applyPreset } from '../presets/apply-preset.js';
import { clientGone, runContext } from '../request-context.js';
import { checkChatRequest } from './check-chat-request.js';
import { applyDefaultModel } from './default-model.js';
import { normalizeChatRequest } from './normalize-chat-request.js';
import type { ChatRequestBody } from './schemas.js';

export interface AdmitOptions {
  /** A Messages run's native body, given the canonical request and whether a preset changed the body. */
  native?: (chat: ChatRequest, presetApplied: boolean) => NativeMessagesRequest | undefined;
  /** Set by an API whose answers fusion cannot make: a fusion model is then refused, naming the route that serves it. */
  fusionRoute?: string;
}

export interface AdmittedChat {
  chat: ChatRequest;
  run: ChatRun;
  signal: AbortSignal;
  /** Whether a preset changed the body sent. */
  presetApplied: boolean;
  /** The request as planned, before the plugins' request stages: a stage that changed it leaves run.request another object. */
  planned: ChatRequest;
}

/**
 * A chat body through everything before the attempts, as POST
 * /chat/completions and POST /messages both take it: the preset it names,
 * the checks, the workspace's and organization's defaults, the default model, planning, and
 * admission (the run holds the most it can cost until it settles, or the
 * caller releases it). POST /chat/completions, /messages and /responses
 * take their bodies through it.
 */
export async function admitChat(
  services: ChatServices & { shutdown: Shutdown },
  request: FastifyRequest,
  reply: FastifyReply,
  sent: ChatRequestBody,
  options: AdmitOptions = {},
): Promise<AdmittedChat> {
  const key = callerKey(request);
  // A preset's fields fill in before the checks, so the merged request obeys the same rules.
  const body = await applyPreset(services.presets, key.workspace_id, sent);
  checkChatRequest(body);
  const [settings, workspace] = await Promise.all([
    services.organizationSettings.get(key.organization_id),
    services.workspaces.get(key.workspace_id),
  ]);
  const sessionHeader = request.headers['x-session-id'];
  // The key's workspace's provider sort comes under the request's, the organization's defaults under both.
  const normalized = applyOrganizationDefaults(
    applyWorkspaceSort(normalizeChatRequest(body, typeof sessionHeader === 'string' ? sessionHeader : undefined), workspace),
    settings,
  );
  // Without a model, an enabled router plugin (the request's or the organization's) names its router model, else the workspace's default.
  const chat = applyDefaultModel(normalized, routerModelOf(normalized.plugins) ?? workspace.textModel ?? undefined);
  const presetApplied = body !== sent;
  if (chat.model === FUSION_MODEL && options.fusionRoute)
    throw Errors.invalidRequest(`Model ${FUSION_MODEL} is served by ${options.fusionRoute}`);
  const signal = clientGone(reply, services.shutdown.signal);
  // The client's messages are kept with the ledger row when the organization stores content.
  const context = { ...runContext(request), ...(settings.storeContent ? { storedInput: chat.messages } : {}) };
  if (chat.model === FUSION_MODEL) {
    const run = await startFusionRun(services, key, chat, context, signal);
    return { chat, run, signal, presetApplied, planned: run.request };
  }
  const started = await startChatRun(services, key, chat, context);
  const nativeRequest = options.native?.(chat, presetApplied);
  const run = await prepareReservedChat(services, nativeRequest ? { ...started, native: nativeRequest } : started, signal);
  return { chat, run, signal, presetApplied, planned: started.request };
}
