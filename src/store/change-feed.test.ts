import { describe, expect, it } from 'vitest';
import { testEngines } from '../../test/support/databases.js';
import { startTcpProxy } from '../../test/support/tcp-proxy.js';
import { until } from '../../test/support/until.js';
import { postgresChangeFeed } from './change-feed.js';

const postgres = testEngines.find((engine) => engine.name === 'postgres');

describe.skipIf(!postgres)('postgresChangeFeed', () => {
  it('outlives a lost connection (no unheard error), listens again once the server is back, and fails no publisher meanwhile', async () => {
    const database = await postgres!.create();
    const direct = new URL(database.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(database.url);
    proxied.host = proxy.address;
    const failures: unknown[] = [];
    const listening = await postgresChangeFeed(proxied.toString(), (error) => failures.push(error));
    const publishing = await postgresChangeFeed(database.url, (error) => failures.push(error));
    const heard: string[] = [];
    listening.subscribe('topic', (id) => heard.push(id));
    try {
      await publishing.publish('topic', 'before');
      await until(
        () => heard,
        (ids) => ids.includes('before'),
      );

      await proxy.cut();
      await until(
        () => failures.length,
        (n) => n > 0,
      );
      // Local delivery goes on; the shared channel is away.
      await listening.publish('topic', 'local');
      expect(heard).toContain('local');

      await proxy.restore();
      const after = await until(
        async () => {
          await publishing.publish('topic', 'after');
          return heard;
        },
        (ids) => ids.includes('after'),
      );
      expect(after).toContain('after');
    } finally {
      await listening.close();
      await publishing.close();
      await proxy.close();
      await database.drop();
    }
  });
});
