import { Errors } from '../../http/errors.js';

/** `provider`: the reference stores a file on a provider with the caller's own key for it; this gateway keeps files itself. */
export function refuseProviderStorage(provider: string | undefined): void {
  if (provider !== undefined)
    throw Errors.invalidRequest(`provider: this gateway keeps files in its own storage; omit provider (got "${provider.slice(0, 100)}")`);
}
