import pino, { type Logger } from 'pino';
import { loadGatewayConfig } from '../config/load-gateway-config.js';
import type { Settings } from '../config/settings.js';
import { PROVIDER_KINDS } from '../providers/registry.js';
import { startGateway } from './start-gateway.js';

/** On SIGTERM or SIGINT: `stop`, then exit 0 (1 when stopping failed). A second signal is ignored while stopping. */
export function stopOnSignal(stop: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  const onSignal = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    try {
      await stop();
      logger.info('stopped');
      logger.flush();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', (signal) => void onSignal(signal));
  process.once('SIGINT', (signal) => void onSignal(signal));
}

/** `model-gateway serve`: the API until SIGTERM or SIGINT, then a drain and exit 0. */
export async function serve(settings: Settings): Promise<void> {
  const logger = pino({ level: settings.logLevel });
  // Configuration is checked before anything else starts: never half-configured.
  const config = settings.configPath ? loadGatewayConfig(settings.configPath, { knownKinds: PROVIDER_KINDS }) : undefined;
  const gateway = await startGateway(settings, { ...(config ? { config } : {}), logger });
  stopOnSignal(gateway.stop, logger);
}
