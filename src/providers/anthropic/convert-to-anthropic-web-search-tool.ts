import type { WebSearchOptions } from '../../protocol/chat.js';
import type { AnthropicWebSearchTool } from './anthropic-messages-api-types.js';

/** Anthropic's web search server tool for native search (pure): max_uses, the domain lists and the location as given. */
export function convertToAnthropicWebSearchTool(options: WebSearchOptions): AnthropicWebSearchTool {
  const location = Object.fromEntries(
    Object.entries(options.user_location ?? {}).filter(([key, value]) => key !== 'type' && value != null),
  );
  return {
    type: 'web_search_20250305',
    name: 'web_search',
    ...(options.max_uses !== undefined ? { max_uses: options.max_uses } : {}),
    ...(options.allowed_domains?.length ? { allowed_domains: options.allowed_domains } : {}),
    ...(options.blocked_domains?.length ? { blocked_domains: options.blocked_domains } : {}),
    ...(Object.keys(location).length > 0 ? { user_location: { type: 'approximate', ...location } } : {}),
  };
}
