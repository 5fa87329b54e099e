// The child of startGatewayProcess: one gateway over an existing database, until it is killed.

import { testEngines } from './databases.js';
import { startGateway } from './gateway.js';
import type { GatewayProcessConfig } from './gateway-process.js';
import { simCatalog } from './sim-gateway.js';

const config = JSON.parse(process.argv[2]!) as GatewayProcessConfig;
const gateway = await startGateway(testEngines[0]!, {
  databaseUrl: config.databaseUrl,
  catalog: simCatalog(config.simUrl, config.providers, config.models),
  ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
  ...(config.spend ? { spend: config.spend } : {}),
});
process.stdout.write(`listening ${gateway.baseUrl} ${gateway.managementKey}\n`);
// Never outlive the test process that started it (a worker that died without killing it).
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    process.exit(1);
  }
}, 1_000);
