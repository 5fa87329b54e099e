import { MEMBERSHIP_TOPIC, membershipKey } from '../../interns/flag-cache.js';
import type { ProvisioningDeps } from '../../scim/provisioning.js';
import { announceKeyChange, type Services } from '../../services.js';

/** Provisioning over the routes' services: what it changed is announced to every instance (interns' membership gate, key cache). */
export function provisioningDeps(services: Services): ProvisioningDeps {
  return {
    db: services.db,
    clock: services.clock,
    async announce(change) {
      for (const userId of change.users) await services.changes.publish(MEMBERSHIP_TOPIC, membershipKey(change.organizationId, userId));
      for (const hash of change.keys) await announceKeyChange(services, hash);
    },
  };
}
