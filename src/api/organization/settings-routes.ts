import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { type OrganizationSettings, toOrganizationSettings } from '../../organization-settings/organization-settings.js';
import { ORGANIZATION_SETTINGS_TOPIC } from '../../organization-settings/settings-cache.js';
import type { Services } from '../../services.js';
import { findOrganizationSettings, saveOrganizationSettings } from '../../store/repositories/organization-settings.js';
import { checkPlugins } from '../chat/check-chat-request.js';
import { UpdateOrganizationSettingsBody } from './settings-schemas.js';

const toRecord = (settings: OrganizationSettings) => ({
  provider: settings.provider,
  plugins: settings.plugins,
  store_content: settings.storeContent,
  updated_at: settings.updatedAt,
});

const asDocument = (value: unknown) => (value === null ? null : JSON.stringify(value));

/**
 * GET and PATCH /organization/settings (management keys): the defaults every
 * chat request of the organization runs with (organization-settings/), and
 * whether its prompts and completions are stored (store_content). A change
 * reaches every instance's cache through the change feed.
 */
export function organizationSettingsRoutes({ db, clock, auth, changes }: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/organization/settings', { onRequest: auth.requireManagementKey }, async (request) => {
      const row = await findOrganizationSettings(db, callerKey(request).organization_id);
      return { data: toRecord(toOrganizationSettings(row)) };
    });

    app.patch(
      '/organization/settings',
      { onRequest: auth.requireManagementKey, schema: { body: UpdateOrganizationSettingsBody } },
      async (request) => {
        const organizationId = callerKey(request).organization_id;
        const { provider, plugins, store_content } = request.body;
        if (plugins) checkPlugins(plugins);
        const row = await saveOrganizationSettings(
          db,
          organizationId,
          {
            ...(provider !== undefined ? { provider: asDocument(provider) } : {}),
            ...(plugins !== undefined ? { plugins: asDocument(plugins) } : {}),
            ...(store_content !== undefined ? { store_content: store_content ? 1 : 0 } : {}),
          },
          clock().toISOString(),
        );
        await changes.publish(ORGANIZATION_SETTINGS_TOPIC, organizationId);
        return { data: toRecord(toOrganizationSettings(row)) };
      },
    );
  };
}
