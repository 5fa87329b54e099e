import type { ChatRequest } from '../protocol/chat.js';
import { mergePlugins } from './merge-plugins.js';
import { mergeProviderPreferences } from './merge-provider-preferences.js';
import type { OrganizationSettings } from './organization-settings.js';

/** The request with its organization's default provider preferences and plugins under its own. */
export function applyOrganizationDefaults(request: ChatRequest, settings: OrganizationSettings): ChatRequest {
  if (!settings.provider && !settings.plugins) return request;
  const { provider: _provider, plugins: _plugins, ...rest } = request;
  const provider = mergeProviderPreferences(settings.provider, request.provider);
  const plugins = mergePlugins(settings.plugins, request.plugins);
  return { ...rest, ...(provider ? { provider } : {}), ...(plugins ? { plugins } : {}) };
}
