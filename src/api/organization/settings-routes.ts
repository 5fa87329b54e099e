import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BYOK_TOPIC } from '../../byok/credential-cache.js';
import { callerKey } from '../../http/authenticate.js';
import { type OrganizationSettings, toOrganizationSettings } from '../../organization-settings/organization-settings.js';
import { ORGANIZATION_SETTINGS_TOPIC } from '../../organization-settings/settings-cache.js';
import type { Services } from '../../services.js';
import { findOrganizationSettings, saveOrganizationSettings } from '../../store/repositories/organization-settings.js';
import { managementReach, requireOrganizationReach } from '../../workspaces/management-reach.js';
import { checkPlugins } from '../chat/check-chat-request.js';
import { UpdateOrganizationSettingsBody } from './settings-schemas.js';

const toRecord = (settings: OrganizationSettings) => ({
  provider: settings.provider,
  plugins: settings.plugins,
  store_content: settings.storeContent,
  byok_fallback: settings.byokFallback,
  updated_at: settings.updatedAt,
});

const asDocument = (value: unknown) => (value === null ? null : JSON.stringify(value));

/**
 * GET and PATCH /organization/settings (management keys): the defaults every
 * chat request of the organization runs with (organization-settings/), and
 * whether its prompts and completions are stored (store_content), and whether
 * a failing BYOK credential falls back to the gateway's own (byok_fallback). A change
 * reaches every instance's cache through the change feed.
 */
export function organizationSettingsRoutes({ db, clock, auth, changes }: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/organization/settings', { onRequest: auth.requireManagementKey }, async (request) => {
      const caller = callerKey(request);
      requireOrganizationReach(managementReach(caller), "read the organization's settings");
      const row = await findOrganizationSettings(db, caller.organization_id);
      return { data: toRecord(toOrganizationSettings(row)) };
    });

    app.patch(
      '/organization/settings',
      { onRequest: auth.requireManagementKey, schema: { body: UpdateOrganizationSettingsBody } },
      async (request) => {
        const caller = callerKey(request);
        requireOrganizationReach(managementReach(caller), "change the organization's settings");
        const organizationId = caller.organization_id;
        const { provider, plugins, store_content, byok_fallback } = request.body;
        if (plugins) checkPlugins(plugins);
        const row = await saveOrganizationSettings(
          db,
          organizationId,
          {
            ...(provider !== undefined ? { provider: asDocument(provider) } : {}),
            ...(plugins !== undefined ? { plugins: asDocument(plugins) } : {}),
            ...(store_content !== undefined ? { store_content: store_content ? 1 : 0 } : {}),
            ...(byok_fallback !== undefined ? { byok_fallback: byok_fallback ? 1 : 0 } : {}),
          },
          clock().toISOString(),
        );
        await changes.publish(ORGANIZATION_SETTINGS_TOPIC, organizationId);
        // The credential cache holds which organizations forbid the fallback.
        if (byok_fallback !== undefined) await changes.publish(BYOK_TOPIC, organizationId);
        return { data: toRecord(toOrganizationSettings(row)) };
      },
    );
  };
}
