import { servesChat } from '../../catalog/model-task.js';
import { FlagCache, INTERN_PROGRAMME_TOPIC, MEMBERSHIP_TOPIC } from '../../interns/flag-cache.js';
import type { InternRuntime } from '../../interns/intern-runtime.js';
import { turnLimiter } from '../../interns/turn-limiter.js';
import { ROUTER_MODELS } from '../../routing/routers/route-models.js';
import type { Services } from '../../services.js';
import { isEnrolled } from '../../store/repositories/interns.js';
import { isMember } from '../../store/repositories/members.js';
import type { SharedRedis } from '../../store/shared-redis.js';
import type { InternServices } from './intern-services.js';

export interface InternOptions {
  runtime?: InternRuntime;
  /** Turn quotas are counted here when instances share a Redis. */
  redis?: SharedRedis;
  /** Spec 7.3's 408 after this long; 60 s by default. */
  acceptTimeoutMs?: number;
  /** Backstop lifetime of the programme and membership answers kept in memory. */
  cacheTtlMs?: number;
}

/** The interns routes' dependencies, with their caches subscribed to change notices. */
export function internServices(services: Services, options: InternOptions): InternServices {
  const ttl = options.cacheTtlMs ?? 10_000;
  const programme = new FlagCache((organizationId) => isEnrolled(services.db, organizationId), ttl);
  const members = new FlagCache((key) => {
    const [organizationId = '', userId = ''] = key.split('\n');
    return isMember(services.db, organizationId, userId);
  }, ttl);
  services.changes.subscribe(INTERN_PROGRAMME_TOPIC, (id) => programme.invalidate(id));
  services.changes.subscribe(MEMBERSHIP_TOPIC, (id) => members.invalidate(id));
  const chatModel = servesChat(services.catalog);
  return {
    db: services.db,
    clock: services.clock,
    auth: services.auth,
    runtime: options.runtime,
    turns: turnLimiter(options.redis),
    acceptTimeoutMs: options.acceptTimeoutMs ?? 60_000,
    programme,
    members,
    servesModel: (model) => chatModel(model) || Object.hasOwn(ROUTER_MODELS, model),
  };
}
