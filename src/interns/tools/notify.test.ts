import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicAddressPolicy } from '../../net/address-policy.js';
import { createSafeFetcher } from '../../net/safe-fetch.js';
import { notifyTool } from './notify.js';
import { recordingServer } from './tools.testing.js';

const signal = new AbortController().signal;
const now = () => new Date('2026-01-01T00:00:00Z');

describe('notify', () => {
  let webhook: Awaited<ReturnType<typeof recordingServer>>;
  const fetcher = createSafeFetcher({ policy: publicAddressPolicy(['127.0.0.0/8']) });
  beforeAll(async () => {
    webhook = await recordingServer((req, res) => res.writeHead(req.url === '/fail' ? 500 : 204).end());
  });
  afterAll(async () => {
    await webhook.close();
    await fetcher.close();
  });

  it("POSTs the report as JSON to the intern's webhook", async () => {
    const tool = notifyTool(fetcher, { internId: 'i1', runId: 'r1', webhookUrl: `${webhook.url}/hook`, now });
    await expect(tool.run({ subject: 'Prices', report: 'all up' }, signal)).resolves.toBe('report delivered (HTTP 204)');
    const last = webhook.received.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.headers['content-type']).toBe('application/json');
    expect(JSON.parse(last.body)).toEqual({
      type: 'intern.report',
      intern_id: 'i1',
      run_id: 'r1',
      subject: 'Prices',
      report: 'all up',
      sent_at: '2026-01-01T00:00:00.000Z',
    });
  });

  it('reports a failing webhook and a missing one as tool errors', async () => {
    await expect(
      notifyTool(fetcher, { internId: 'i', runId: 'r', webhookUrl: `${webhook.url}/fail`, now }).run({ report: 'x' }, signal),
    ).rejects.toThrow('HTTP 500');
    await expect(notifyTool(fetcher, { internId: 'i', runId: 'r', webhookUrl: null, now }).run({ report: 'x' }, signal)).rejects.toThrow(
      'no webhook_url',
    );
  });

  it('refuses a webhook on a private address the operator did not open', async () => {
    const closed = createSafeFetcher();
    await expect(
      notifyTool(closed, { internId: 'i', runId: 'r', webhookUrl: `${webhook.url}/hook`, now }).run({ report: 'x' }, signal),
    ).rejects.toThrow(/blocked/);
    await closed.close();
  });
});
