import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGenerations } from '../../src/accounting/record-generation.js';
import { hashApiKey } from '../../src/accounts/api-key-material.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import type { GenerationRecord } from '../../src/store/schema.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

// Debian's Chromium (.ci/run installs it); Playwright's own browser download is not used.
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'console');
// Without the browser a developer's machine skips this file; CI never does: there, a missing browser fails.
const skip = !existsSync(CHROMIUM) && !process.env.CI;

const MODELS = [
  { id: 'sim/a', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00001, completion: 0.00002 }] },
  { id: 'sim/b', endpoints: [{ provider: 'beta', upstream: 'sim-model', prompt: 0.00003, completion: 0.00004 }] },
  { id: 'sim/c', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.000002, completion: 0.000004 }] },
];
const DAY_MS = 86_400_000;
/** Waits for what the page shows, generously: CI runs this beside the rest of the suite on few cores. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 50 });
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 });

describe.skipIf(skip)('the web console in Chromium', { timeout: 60_000 }, () => {
  let sim: Simulator;
  let gw: RunningGateway;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let createdKey: string;
  const problems: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const open = async (label: string) => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: label }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(label);
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    sim = await startSimulator();
    gw = await startGateway(testEngines[0]!, { catalog: simCatalog(sim.url, ['alpha', 'beta'], MODELS) });
    origin = new URL(gw.baseUrl).origin;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    page = await context.newPage();
    // A script error or a CSP refusal shows as a console error: the page must have none.
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 40[13]/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await sim?.close();
  });

  it('signs in with a management key, which the page then no longer holds', async () => {
    await page.goto(`${origin}/console/`);
    await shot('sign-in');
    await page.getByLabel('Management key').fill(gw.managementKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
    const cookies = await page.context().cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: 'mg_console', httpOnly: true, sameSite: 'Strict', path: '/api/v1' })]);
    expect(await page.evaluate('document.cookie')).toBe('');
    expect(await page.content()).not.toContain(gw.managementKey);
  });

  it('creates a key, shows it once with a copy button, and lists it', async () => {
    await open('Keys');
    await page.getByLabel('Name', { exact: true }).fill('browser key');
    await page.getByLabel('Limit (USD, empty for none)').fill('5');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('created-key');
    createdKey = (await shown.textContent()) ?? '';
    expect(createdKey).toMatch(/^sk-mg-v1-[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'clipboard' }).textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(createdKey);
    await poll(() => page.getByTestId('key-name').allTextContents()).toContain('browser key');
    await shot('keys-created');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('created-key').count()).toBe(0);
    await page.reload();
    await poll(() => page.getByTestId('key-name').allTextContents()).toContain('browser key');
    expect(await page.content()).not.toContain(createdKey);
  });

  it('shows the key’s chats on the overview chart and in the generations list', async () => {
    // A guardrail on the key: its stage shows in each generation's pipeline.
    const guardrail = await call(gw, 'POST', '/guardrails', {
      key: gw.managementKey,
      body: { name: 'Simulated models only', description: 'Keys of the console test', allowed_models: ['sim/a', 'sim/b', 'sim/c'] },
    });
    expect(guardrail.status).toBe(201);
    const assigned = await call(gw, 'POST', `/guardrails/${guardrail.body.data.id}/assignments/keys`, {
      key: gw.managementKey,
      body: { key_hashes: [hashApiKey(createdKey)] },
    });
    expect(assigned.body).toEqual({ assigned_count: 1 });
    for (const model of ['sim/a', 'sim/a', 'sim/b']) {
      const res = await call(gw, 'POST', '/chat/completions', {
        key: createdKey,
        body: { model, max_tokens: 16, messages: [{ role: 'user', content: 'Hello from the console test' }] },
      });
      expect(res.status).toBe(200);
    }
    await open('Overview');
    await poll(() => page.getByTestId('total-requests').textContent()).toBe('3');
    expect(await page.locator('.uplot canvas').count()).toBe(2);
    expect(await page.locator('.u-legend').first().textContent()).toContain('sim/a');
    expect(await page.getByRole('img', { name: /Spend \(USD\)\. 3 requests/ }).count()).toBe(1);
    expect(await page.getByRole('table', { name: 'Spend and requests by key over the range' }).textContent()).toContain('browser key');
    await shot('overview');

    await open('Generations');
    const rows = page.getByRole('table', { name: 'Generations, newest first' }).locator('tbody tr');
    await poll(() => rows.count()).toBe(3);
    await page.getByLabel('Model', { exact: true }).fill('sim/b');
    await page.getByRole('button', { name: 'Search' }).click();
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('browser key');
    await shot('generations');
  });

  it('opens one generation with its routing attempts, stages, tokens, cost and latency', async () => {
    await page.getByRole('table', { name: 'Generations, newest first' }).locator('tbody tr a').first().click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Generation');
    const attempts = page.getByRole('table', { name: 'Routing attempts in the order they were made' });
    await poll(() => attempts.locator('tbody tr').count()).toBe(1);
    expect(await attempts.textContent()).toContain('beta');
    expect(await attempts.textContent()).toContain('served');
    expect(await page.getByTestId('generation-cost').textContent()).toMatch(/^\$0\.\d+/);
    const stages = page.getByRole('table', { name: 'Plugin and guardrail stages in the order they ran' });
    expect(await stages.textContent()).toContain('guardrail');
    expect(await stages.textContent()).toContain('Simulated models only');
    expect(await stages.textContent()).toContain('Allowed');
    await shot('generation');
  });

  it('shows guardrails, members, and models with their endpoints’ health', async () => {
    await open('Guardrails');
    await poll(() => page.getByRole('table', { name: 'Guardrails of the default workspace' }).textContent()).toContain(
      'Simulated models only',
    );
    await shot('guardrails');
    await open('Members');
    await poll(() => page.getByRole('table', { name: 'Members of the organization' }).locator('tbody tr').count()).toBeGreaterThan(0);
    await shot('members');
    await open('Models');
    await page.getByRole('button', { name: 'Show endpoints of sim/a' }).click();
    const endpoints = page.getByRole('table', { name: 'Endpoints of sim/a and their health' });
    await poll(() => endpoints.textContent()).toContain('healthy');
    expect(await endpoints.textContent()).not.toContain('no traffic');
    await shot('models');
  });

  it('draws a week of two more keys’ history, and any range of it, agreeing with the ledger', async () => {
    const workspace = (await call(gw, 'GET', '/key', { key: createdKey })).body.data.workspace_id as string;
    const history: GenerationRecord[] = [];
    for (const [k, name] of ['web app', 'batch jobs'].entries()) {
      const hash = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name } })).body.data.hash as string;
      for (let day = 1; day <= 6; day++) {
        for (const [m, model] of ['sim/a', 'sim/b', 'sim/c'].entries()) {
          // A week's traffic of a shape that varies by day, key and model.
          for (let n = 0; n < ((day * 5 + m * 3 + k * 4) % 7) + 1; n++) {
            const at = new Date(Date.now() - day * DAY_MS - n * 3_600_000).toISOString();
            history.push({
              id: `gen-history-${k}-${day}-${m}-${n}`,
              organization_id: gw.organizationId,
              workspace_id: workspace,
              api_key_hash: hash,
              model,
              provider_name: m === 1 ? 'beta' : 'alpha',
              api_type: 'completions',
              status: 'success',
              streamed: 0,
              cancelled: 0,
              tokens_prompt: 400 + 50 * n,
              tokens_completion: 200 + 30 * m,
              total_cost: (m + 1) * 0.0011 * (n + 1),
              created_at: at,
            });
          }
        }
      }
    }
    await recordGenerations(gw.store.db, history, new Date());
    const totals = async (from: string, to: string) => {
      const rows = await gw.store.db
        .selectFrom('generations')
        .select(['total_cost'])
        .where('organization_id', '=', gw.organizationId)
        .where('created_at', '>=', `${from}T00:00:00.000Z`)
        .where('created_at', '<=', `${to}T23:59:59.999Z`)
        .execute();
      return { requests: String(rows.length), spend: usd.format(Math.round(rows.reduce((sum, r) => sum + r.total_cost, 0) * 1e12) / 1e12) };
    };
    await open('Overview');
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 6 * DAY_MS).toISOString().slice(0, 10);
    const week = await totals(weekAgo, today);
    await poll(() => page.getByTestId('total-requests').textContent()).toBe(week.requests);
    expect(await page.getByTestId('total-spend').textContent()).toBe(week.spend);
    const byKey = await page.getByRole('table', { name: 'Spend and requests by key over the range' }).textContent();
    expect(byKey).toContain('web app');
    expect(byKey).toContain('batch jobs');
    await page.getByText('Spend (USD) per day, as a table').click();
    expect(await page.getByRole('table', { name: 'Spend (USD) per day (UTC)' }).locator('tbody tr').count()).toBe(7);
    await page.getByText('Spend (USD) per day, as a table').click();
    await shot('overview-week');

    // A line per key instead of per model, named as the keys are, with the same totals.
    await page.getByLabel('Chart by').selectOption('Key');
    await poll(() => page.getByRole('heading', { name: 'Spend by key, per day' }).count()).toBe(1);
    await poll(() => page.locator('.u-legend').first().textContent()).toContain('web app');
    expect(await page.locator('.u-legend').first().textContent()).toContain('batch jobs');
    expect(await page.locator('.u-legend').first().textContent()).not.toContain('sim/a');
    expect(await page.getByTestId('total-requests').textContent()).toBe(week.requests);
    await shot('overview-by-key');
    await page.getByLabel('Chart by').selectOption('Model');
    await poll(() => page.getByRole('heading', { name: 'Spend by model, per day' }).count()).toBe(1);

    const threeDaysAgo = new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10);
    await page.getByLabel('From (UTC)').fill(threeDaysAgo);
    await page.getByLabel('To (UTC)').fill(threeDaysAgo);
    await page.getByRole('button', { name: 'Show' }).click();
    const day = await totals(threeDaysAgo, threeDaysAgo);
    await poll(() => page.getByTestId('total-requests').textContent()).toBe(day.requests);
    expect(await page.getByTestId('total-spend').textContent()).toBe(day.spend);
    expect(await page.getByRole('heading', { name: 'Spend by model, per hour' }).count()).toBe(1);
    // The date fields offer the last 30 days and no others.
    expect(await page.getByLabel('From (UTC)').getAttribute('min')).toBe(new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10));
    expect(await page.getByLabel('To (UTC)').getAttribute('max')).toBe(today);
    await shot('overview-day');
  });

  it('offers every key in the generations filter, past the first page of GET /keys', async () => {
    for (let n = 1; n <= 100; n++) await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: `extra key ${n}` } });
    await open('Generations');
    const options = () => page.getByLabel('Key').locator('option').allTextContents();
    await poll(options).toContain('extra key 100');
    expect(await options()).toContain('browser key');
  });

  it('edits the key’s limit and expiry, then disables it from the keys page: its requests are refused', async () => {
    await open('Keys');
    await page.getByRole('button', { name: 'Edit limit and expiry of browser key' }).click();
    const edit = page.getByRole('form', { name: 'Edit key browser key' });
    await edit.getByLabel('Limit (USD)').fill('7.5');
    await edit.getByLabel('Expires (UTC day)').fill('2030-06-30');
    await edit.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('row').filter({ hasText: 'browser key' });
    await poll(() => row.textContent()).toContain('$7.50');
    expect(await row.textContent()).toContain('2030-06-30 23:59:59 UTC');
    await page.getByRole('button', { name: 'Disable browser key' }).click();
    await poll(() => page.getByRole('button', { name: 'Enable browser key' }).count()).toBe(1);
    await shot('keys-disabled');
    const refused = await call(gw, 'POST', '/chat/completions', {
      key: createdKey,
      body: { model: 'sim/a', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe('API key is disabled');
  });

  it('moves through the pages by keyboard, and signs out', async () => {
    await page.goto(`${origin}/console/#/members`);
    await page.reload();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Members');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Overview');
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await poll(() => page.getByLabel('Management key').count()).toBe(1);
    expect(await page.context().cookies()).toEqual([]);
    expect(problems).toEqual([]);
  });
});
