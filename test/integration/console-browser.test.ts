import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGenerations } from '../../src/accounting/record-generation.js';
import { hashApiKey } from '../../src/accounts/api-key-material.js';
import { CONSOLE_CSP } from '../../src/api/console/serve-console.js';
import type { ReceivedLog } from '../../src/sim/receivers/receivers.js';
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
  // Its first endpoint always fails: every request falls back to the second.
  {
    id: 'sim/flaky',
    endpoints: [
      { provider: 'alpha', upstream: 'sim-model@status=503', prompt: 0.000001, completion: 0.000002 },
      { provider: 'beta', upstream: 'sim-model', prompt: 0.000001, completion: 0.000002 },
    ],
  },
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
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: label, exact: true }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(label);
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    sim = await startSimulator();
    gw = await startGateway(testEngines[0]!, {
      catalog: simCatalog(sim.url, ['alpha', 'beta'], MODELS),
      // Destinations deliver to the simulator's receivers, on this machine, and try again soon.
      plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
      destinations: { intervalMs: 50, backoffBaseMs: 50, backoffMaxMs: 300, timeoutMs: 1_000, retryWindowMs: 60_000 },
    });
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
      body: {
        name: 'Simulated models only',
        description: 'Keys of the console test',
        allowed_models: ['sim/a', 'sim/b', 'sim/c', 'sim/flaky'],
      },
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
    await poll(() => page.getByRole('table', { name: 'Guardrails of workspace Default' }).textContent()).toContain('Simulated models only');
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

  it('marks refusals, fallbacks and streams in the generations list, and links a generation to its key', async () => {
    const chat = (body: Record<string, unknown>) =>
      call(gw, 'POST', '/chat/completions', {
        key: createdKey,
        body: { max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...body },
      });
    expect((await chat({ model: 'sim/nope' })).status).toBe(404);
    expect((await chat({ model: 'sim/flaky' })).status).toBe(200);
    expect((await chat({ model: 'sim/c', stream: true })).status).toBe(200);
    await open('Generations');
    const rows = page.getByRole('table', { name: 'Generations, newest first' }).locator('tbody tr');
    const marksOf = (model: string) => rows.filter({ hasText: model }).getByTestId('generation-marks').textContent();
    await poll(() => rows.count()).toBe(6);
    expect(await marksOf('sim/nope')).toMatch(/^refused\s*GW_ERR_\w+$/);
    expect(await rows.filter({ hasText: 'sim/nope' }).textContent()).toContain('error 404');
    expect(await marksOf('sim/flaky')).toBe('fallback');
    expect(await marksOf('sim/c')).toBe('stream');
    expect(await marksOf('sim/b')).toBe('');
    await shot('generations-marks');
    await rows.filter({ hasText: 'sim/nope' }).getByRole('link', { name: 'browser key' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Key');
    await poll(() => page.getByTestId('key-name').allTextContents()).toEqual(['browser key']);
    await shot('key-focused');
    await page.getByRole('link', { name: 'All keys of workspace Default' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Keys');
  });

  it('lists each model’s type, context length and prices, and an endpoint that failed lately', async () => {
    // Its first endpoint answers 503 again: the health this instance keeps marks it for a while.
    const flaky = await call(gw, 'POST', '/chat/completions', {
      key: createdKey,
      body: { model: 'sim/flaky', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(flaky.status).toBe(200);
    await open('Models');
    const models = page.getByRole('table', { name: 'Models this gateway serves' });
    const cells = (model: string) => models.locator('tbody tr').filter({ hasText: model }).locator('td').allTextContents();
    await poll(() => cells('sim/a')).toEqual([
      'sim/a',
      expect.any(String),
      'text->text',
      expect.any(String),
      '$10.00',
      '$20.00',
      'Show endpoints of sim/a',
    ]);
    expect((await cells('sim/c')).slice(4, 6)).toEqual(['$2.00', '$4.00']);
    // A router's price is the price of the model it picks.
    expect((await cells('service/auto')).slice(4, 6)).toEqual(['varies', 'varies']);
    await page.getByRole('button', { name: 'Show endpoints of sim/flaky' }).click();
    const endpoints = page.getByRole('table', { name: 'Endpoints of sim/flaky and their health' }).locator('tbody tr');
    await poll(() => endpoints.filter({ hasText: 'alpha' }).textContent()).toContain('failed lately');
    // With its last error: the upstream's status and message.
    expect(await endpoints.filter({ hasText: 'alpha' }).getByTestId('endpoint-last-error').textContent()).toMatch(/^503: \S/);
    expect(await endpoints.filter({ hasText: 'beta' }).textContent()).toContain('healthy');
    await shot('models-health');
  });

  it('shows health on the overview: requests by how they ended, and latency and first-token quantiles, by model and by key', async () => {
    await open('Overview');
    const health = page.getByRole('table', { name: /^Requests by how they ended, and latency and first-token time, by model/ });
    const cells = (name: string) => health.locator('tbody tr').filter({ hasText: name }).first().locator('td').allTextContents();
    // The refused model as asked: one request, refused, no latency (no model answered it).
    await poll(() => cells('sim/nope')).toEqual(['sim/nope', '1', '0', '1', '0', '—', '—', '—', '—']);
    const answered = await cells('sim/a');
    expect(answered.slice(0, 5)).toEqual(['sim/a', '2', '2', '0', '0']);
    expect(answered[5]).toMatch(/^\d[\d,]* ms$/);
    // The stream's first token was timed.
    expect((await cells('sim/c'))[7]).toMatch(/^\d[\d,]* ms$/);
    expect(Number(await page.getByTestId('total-errors').textContent())).toBeGreaterThanOrEqual(1);
    await shot('overview-health');
    await page.getByLabel('Chart by').selectOption('api_key_id');
    const byKey = page.getByRole('table', { name: /^Requests by how they ended, and latency and first-token time, by key/ });
    await poll(() => byKey.locator('tbody tr').filter({ hasText: 'browser key' }).locator('td').nth(3).textContent()).toBe('1');
    await page.getByLabel('Chart by').selectOption('model');
  });

  it('creates a guardrail and edits it, as the API then reads it', async () => {
    const listed = async () =>
      (await call(gw, 'GET', '/guardrails', { key: gw.managementKey })).body.data.find((g: { name: string }) => g.name.startsWith('Night'));
    await open('Guardrails');
    const create = page.getByRole('form', { name: 'Create a guardrail' });
    await create.getByLabel('Name', { exact: true }).fill('Night batch');
    await create.getByLabel('Description').fill('Cheap models for the batch jobs');
    await create.getByLabel('Budget (USD, empty for none)').fill('12.5');
    await create.getByLabel('Budget resets').selectOption('weekly');
    await create.getByLabel('Allowed models (comma-separated, empty for any)').fill('sim/c, sim/a');
    await create.getByRole('button', { name: 'Create guardrail' }).click();
    await poll(() => page.getByTestId('guardrail-name').allTextContents()).toContain('Night batch');
    expect(await create.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    expect(await listed()).toMatchObject({
      name: 'Night batch',
      description: 'Cheap models for the batch jobs',
      limit_usd: 12.5,
      reset_interval: 'weekly',
      allowed_models: ['sim/c', 'sim/a'],
    });
    expect((await listed()).allowed_providers ?? null).toBeNull();

    await page.getByRole('button', { name: 'Edit Night batch' }).click();
    const edit = page.getByRole('form', { name: 'Edit guardrail Night batch' });
    expect(await edit.getByLabel('Allowed models (comma-separated, empty for any)').inputValue()).toBe('sim/c, sim/a');
    await edit.getByLabel('Name', { exact: true }).fill('Night jobs');
    await edit.getByLabel('Budget (USD, empty for none)').fill('');
    await edit.getByLabel('Budget resets').selectOption('');
    await edit.getByLabel('Allowed models (comma-separated, empty for any)').fill('');
    await edit.getByLabel('Allowed providers (comma-separated, empty for any)').fill('alpha');
    await edit.getByRole('button', { name: 'Save guardrail' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Night jobs' });
    await poll(() => row.textContent()).toContain('alpha');
    expect(await page.getByRole('form', { name: 'Edit guardrail Night jobs' }).count()).toBe(0);
    await shot('guardrails-edited');
    const saved = await listed();
    expect(saved).toMatchObject({ name: 'Night jobs', limit_usd: null, reset_interval: null, allowed_providers: ['alpha'] });
    expect(saved.allowed_models ?? null).toBeNull();

    // A refusal shows as the gateway words it, and changes nothing.
    await page.getByRole('button', { name: 'Edit Night jobs' }).click();
    const again = page.getByRole('form', { name: 'Edit guardrail Night jobs' });
    await again.getByLabel('Allowed models (comma-separated, empty for any)').fill(`sim/${'x'.repeat(300)}`);
    await again.getByRole('button', { name: 'Save guardrail' }).click();
    await poll(() => again.getByRole('alert').textContent()).toContain('allowed_models');
    expect((await listed()).allowed_models ?? null).toBeNull();
    expect(problems.splice(0)).toEqual([expect.stringContaining('status of 400')]);
  });

  it('adds a member, changes their role, and removes them, as the API then reads them', async () => {
    await open('Members');
    const add = page.getByRole('form', { name: 'Add a member' });
    await add.getByLabel('Email').fill('grace@example.com');
    await add.getByLabel('First name').fill('Grace');
    await add.getByLabel('Role').selectOption('admin');
    await add.getByRole('button', { name: 'Add member' }).click();
    const role = page.getByLabel('Role of Grace');
    await poll(() => role.count()).toBe(1);
    expect(await role.inputValue()).toBe('admin');
    const listed = async () =>
      ((await call(gw, 'GET', '/organization/members', { key: gw.managementKey })).body.data as { email: string; role: string }[]).find(
        (m) => m.email === 'grace@example.com',
      );
    expect(await listed()).toMatchObject({ first_name: 'Grace', role: 'org:admin' });
    await shot('members-added');
    await role.selectOption('member');
    await poll(async () => (await listed())?.role).toBe('org:member');
    await page.getByRole('button', { name: 'Remove Grace' }).click();
    await poll(() => page.getByLabel('Role of Grace').count()).toBe(0);
    expect(await listed()).toBeUndefined();
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

  it('creates a workspace, edits it, adds and removes a member, and switches the keys list to it', async () => {
    const owner = (await call(gw, 'GET', '/organization/members', { key: gw.managementKey })).body.data[0] as { id: string };
    await open('Workspaces');
    const create = page.getByRole('form', { name: 'Create a workspace' });
    await create.getByLabel('Name', { exact: true }).fill('Research');
    await create.getByLabel('Description').fill('Models under evaluation');
    await create.getByRole('button', { name: 'Create workspace' }).click();
    await poll(() => page.getByTestId('workspace-name').allTextContents()).toEqual(['Default', 'Research']);
    // The default workspace is never deleted: it offers no such button.
    expect(await page.getByRole('button', { name: 'Delete Default' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete Research' }).count()).toBe(1);
    const created = (await call(gw, 'GET', '/workspaces/research', { key: gw.managementKey })).body.data;
    expect(created).toMatchObject({ name: 'Research', slug: 'research', description: 'Models under evaluation' });

    await page.getByRole('button', { name: 'Manage Research' }).click();
    const edit = page.getByRole('form', { name: 'Edit workspace Research' });
    await edit.getByLabel('Name', { exact: true }).fill('Research team');
    await edit.getByLabel('Default text model').fill('sim/a');
    await edit.getByLabel('Default provider sort').selectOption('price');
    await edit.getByRole('button', { name: 'Save workspace' }).click();
    await poll(() => page.getByTestId('workspace-name').allTextContents()).toEqual(['Default', 'Research team']);
    expect(await page.getByRole('row').filter({ hasText: 'Research team' }).textContent()).toContain('sim/a');
    expect((await call(gw, 'GET', `/workspaces/${created.id}`, { key: gw.managementKey })).body.data).toMatchObject({
      name: 'Research team',
      default_text_model: 'sim/a',
      default_provider_sort: 'price',
    });

    // A member picked from the organization's, removed, then added back by user id.
    const members = page.getByRole('table', { name: 'Members of workspace Research team' });
    const add = page.getByRole('form', { name: 'Add members to Research team' });
    await add.getByLabel('Organization member').selectOption(owner.id);
    await add.getByRole('button', { name: 'Add' }).click();
    await poll(() => members.textContent()).toContain(owner.id);
    await shot('workspace-members');
    await page.getByRole('button', { name: `Remove ${owner.id} from Research team` }).click();
    await poll(() => members.count()).toBe(0);
    await add.getByLabel('Or user ids (comma-separated)').fill(owner.id);
    await add.getByLabel('Role').selectOption('member');
    await add.getByRole('button', { name: 'Add' }).click();
    await poll(() => members.textContent()).toContain(owner.id);
    expect((await call(gw, 'GET', `/workspaces/${created.id}/members`, { key: gw.managementKey })).body.data).toEqual([
      expect.objectContaining({ user_id: owner.id, role: 'member' }),
    ]);
    // Budgets: limits narrowing with the interval, each with a bar of what its period spent; a wider one below a narrower is refused.
    const budgets = page.getByRole('table', { name: 'Budgets of workspace Research team' });
    const setBudget = page.getByRole('form', { name: 'Set a budget of Research team' });
    for (const [interval, limit] of [
      ['daily', '2'],
      ['monthly', '10'],
    ] as const) {
      await setBudget.getByLabel('Interval').selectOption(interval);
      await setBudget.getByLabel('Limit (USD)').fill(limit);
      await setBudget.getByRole('button', { name: 'Set budget' }).click();
      await poll(() => budgets.locator('tbody tr').count()).toBe(interval === 'daily' ? 1 : 2);
    }
    expect(await budgets.textContent()).toContain('$10.00');
    await setBudget.getByLabel('Interval').selectOption('weekly');
    await setBudget.getByLabel('Limit (USD)').fill('1');
    await setBudget.getByRole('button', { name: 'Set budget' }).click();
    await poll(() => setBudget.getByRole('alert').textContent()).toMatch(/weekly.*daily|daily.*weekly/);
    expect(await budgets.locator('tbody tr').count()).toBe(2);
    // The browser logs the refusal the page shows; that one is expected, no other.
    expect(problems.splice(0)).toEqual([expect.stringContaining('status of 400')]);
    await shot('workspaces');

    // The switcher: the keys page lists the chosen workspace's keys, and a key created there belongs to it.
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Research team' });
    await open('Keys');
    await poll(() => page.getByRole('table', { name: 'Keys of workspace Research team' }).count()).toBe(0);
    await page.getByLabel('Name', { exact: true }).fill('research key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await poll(() => page.getByTestId('key-name').allTextContents()).toEqual(['research key']);
    expect(await page.getByTestId('key-workspace').allTextContents()).toEqual(['Research team']);
    const listed = await call(gw, 'GET', `/keys?workspace_id=${created.id}`, { key: gw.managementKey });
    expect(listed.body.data.map((k: { name: string }) => k.name)).toEqual(['research key']);
    const researchKey = (await page.getByTestId('created-key').textContent()) ?? '';
    await page.getByRole('button', { name: 'Done' }).click();
    await shot('keys-workspace');
    // What the key spends shows on its workspace's budgets.
    const chat = await call(gw, 'POST', '/chat/completions', {
      key: researchKey,
      body: { model: 'sim/a', max_tokens: 16, messages: [{ role: 'user', content: 'Hello from the research workspace' }] },
    });
    expect(chat.status).toBe(200);
    await open('Workspaces');
    await page.getByRole('button', { name: 'Manage Research team' }).click();
    await poll(() => page.getByTestId('budget-spent-daily').textContent()).toMatch(/^\$0\.0*[1-9]/);
    expect(Number(await page.getByRole('meter', { name: 'daily budget used' }).getAttribute('value'))).toBeGreaterThan(0);
    await shot('workspace-budgets');
    await open('Keys');
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Default' });
    await poll(() => page.getByTestId('key-name').allTextContents()).toContain('browser key');
    expect(await page.getByTestId('key-name').allTextContents()).not.toContain('research key');
    expect(new Set(await page.getByTestId('key-workspace').allTextContents())).toEqual(new Set(['Default']));
    // The generations filter offers the keys of every workspace.
    await open('Generations');
    await poll(() => page.getByLabel('Key').locator('option').allTextContents()).toContain('research key');
  });

  it('adds a provider key (BYOK) that the page never shows, disables it and deletes it', async () => {
    const providerKey = `sk-byok-${'Q7xZ'.repeat(12)}-ENDS`;
    const credentials = async () => (await call(gw, 'GET', '/byok', { key: gw.managementKey })).body.data as Record<string, unknown>[];
    const defaultId = (await call(gw, 'GET', '/workspaces/default', { key: gw.managementKey })).body.data.id as string;
    await open('Provider keys');
    const add = page.getByRole('form', { name: 'Add a provider key' });
    await poll(() => add.getByLabel('Provider').locator('option').allTextContents()).toContain('alpha');
    await add.getByLabel('Provider').selectOption('alpha');
    await add.getByLabel('Key (sent once, never shown)').fill(providerKey);
    await add.getByLabel('Name', { exact: true }).fill('Team alpha key');
    await add.getByLabel('Sort order (lowest tried first)').fill('2');
    await add.getByRole('button', { name: 'Add provider key' }).click();
    await poll(() => page.getByTestId('byok-name').allTextContents()).toEqual(['Team alpha key']);
    // The page let go of the key: the field is empty, and neither the key nor a long piece of it is anywhere in the page.
    expect(await add.getByLabel('Key (sent once, never shown)').inputValue()).toBe('');
    const row = page.getByRole('row').filter({ hasText: 'Team alpha key' });
    expect(await row.textContent()).toContain('Default');
    const fieldValues = await Promise.all((await page.locator('input').all()).map((input) => input.inputValue()));
    for (const text of [await page.content(), fieldValues.join('\n')]) {
      expect(text).not.toContain(providerKey);
      expect(text).not.toContain('Q7xZQ7xZ');
    }
    expect(await credentials()).toEqual([
      expect.objectContaining({ provider: 'alpha', name: 'Team alpha key', workspace_id: defaultId, sort_order: 2, disabled: false }),
    ]);
    await shot('byok');

    await page.getByRole('button', { name: 'Disable Team alpha key' }).click();
    await poll(() => page.getByRole('button', { name: 'Enable Team alpha key' }).count()).toBe(1);
    expect(await row.textContent()).toContain('disabled');
    expect((await credentials())[0]).toMatchObject({ disabled: true });
    await page.getByRole('button', { name: 'Enable Team alpha key' }).click();
    await poll(async () => (await credentials())[0]?.disabled).toBe(false);

    // Deleting asks first: declined, nothing changes; agreed, the credential is gone.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Delete Team alpha key' }).click();
    expect(await credentials()).toHaveLength(1);
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toContain('Team alpha key');
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Delete Team alpha key' }).click();
    await poll(() => page.getByTestId('byok-name').count()).toBe(0);
    expect(await credentials()).toEqual([]);
    expect(await page.content()).not.toContain(providerKey);
  });

  it('lists the providers with their health', async () => {
    await open('Providers');
    const providers = page.getByRole('table', { name: 'Providers this gateway serves and their health' });
    await poll(() => providers.locator('tbody tr').count()).toBe(2);
    // beta served every request sent to it; its row says so.
    const beta = providers.locator('tbody tr').filter({ hasText: 'beta' });
    expect(await beta.textContent()).toContain('healthy');
    expect(await beta.textContent()).toContain('100%');
    await shot('providers');
  });

  it('shows a destination’s dead letters and last error, and retries them', async () => {
    const received = async () => (await (await fetch(`${sim.url}/__sim/receivers`)).json()) as ReceivedLog;
    const user = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'destinations key' } })).body.key as string;
    const created = await call(gw, 'POST', '/observability/destinations', {
      key: gw.managementKey,
      body: { type: 'webhook', name: 'Team webhook', config: { url: `${sim.url}/receivers/nowhere` } },
    });
    expect(created.status).toBe(201);
    // A workspace broadcasts its generations only once it says so (is_observability_broadcast_enabled).
    const workspace = (await call(gw, 'GET', '/key', { key: user })).body.data.workspace_id as string;
    const broadcast = await call(gw, 'PATCH', `/workspaces/${workspace}`, {
      key: gw.managementKey,
      body: { is_observability_broadcast_enabled: true },
    });
    expect(broadcast.status).toBe(200);
    const chat = await call(gw, 'POST', '/chat/completions', {
      key: user,
      body: { model: 'sim/a', max_tokens: 16, messages: [{ role: 'user', content: 'Hello, destinations' }] },
    });
    expect(chat.status).toBe(200);
    await open('Destinations');
    const refresh = page.getByRole('button', { name: 'Refresh' });
    const deadLetters = page.getByTestId('destination-dead-letters');
    // The sender gives up on the 404 in a moment; the page shows what it knows when refreshed.
    await poll(async () => {
      await refresh.click();
      return deadLetters.textContent();
    }).toBe('1');
    const row = page.getByRole('row').filter({ hasText: 'Team webhook' });
    expect(await row.textContent()).toContain('answered 404');
    expect(await page.getByTestId('destination-last-success').textContent()).toBe('never');
    await shot('destinations-dead-letters');

    // The receiver's address fixed, the dead letter goes out again and arrives.
    const fixed = `${sim.url}/receivers/webhook/console`;
    await call(gw, 'PATCH', `/observability/destinations/${created.body.data.id}`, {
      key: gw.managementKey,
      body: { config: { url: fixed } },
    });
    await page.getByRole('button', { name: 'Retry the dead letters of Team webhook' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'Queued again' }).textContent()).toBe(
      'Queued again: 1 dead letter of Team webhook.',
    );
    await poll(async () => (await received()).webhook.filter((w) => w.path === '/receivers/webhook/console').length).toBe(1);
    await poll(async () => {
      await refresh.click();
      return page.getByTestId('destination-last-success').textContent();
    }).toMatch(/UTC$/);
    expect(await deadLetters.textContent()).toBe('0');
    expect(await page.getByRole('button', { name: 'Retry the dead letters of Team webhook' }).count()).toBe(0);
    await shot('destinations');
  });

  it('lists the workspace’s files, downloads one and deletes it', async () => {
    const upload = new FormData();
    const content = 'region,growth\nnorth,12\nsouth,7\n';
    upload.append('file', new Blob([content], { type: 'text/csv' }), 'report.csv');
    const uploaded = await fetch(`${gw.baseUrl}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}` },
      body: upload,
    });
    expect(uploaded.status).toBe(200);
    const file = (await uploaded.json()) as { id: string };
    await open('Files');
    await poll(() => page.getByTestId('file-name').allTextContents()).toEqual(['report.csv']);
    const row = page.getByRole('row').filter({ hasText: 'report.csv' });
    expect(await row.textContent()).toContain('text/csv');
    expect(await row.textContent()).toContain(`${content.length} bytes`);
    await shot('files');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download report.csv' }).click()]);
    expect(download.suggestedFilename()).toBe('report.csv');
    expect(readFileSync(await download.path(), 'utf8')).toBe(content);

    // Another workspace has files of its own: none here.
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Research team' });
    await poll(() => page.getByRole('main').textContent()).toContain('No files');
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Default' });
    await poll(() => page.getByTestId('file-name').allTextContents()).toEqual(['report.csv']);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete report.csv' }).click();
    await poll(() => page.getByTestId('file-name').count()).toBe(0);
    expect((await call(gw, 'GET', `/files/${file.id}`, { key: gw.managementKey })).status).toBe(404);
  });

  it('shows a "not found" page for an unknown route, with a link back to the overview', async () => {
    for (const route of ['nope', 'members/extra']) {
      await page.goto(`${origin}/console/#/${route}`);
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
      expect(await page.getByRole('main').textContent()).toContain('no page at this address');
    }
    await shot('not-found');
    await page.getByRole('link', { name: 'Back to the overview' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
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

  it("shows the API reference at /docs under the console's CSP, with nothing refused", async () => {
    const answer = await page.goto(`${origin}/docs/`);
    expect(answer?.headers()['content-security-policy']).toBe(CONSOLE_CSP);
    expect(answer?.headers()['x-frame-options']).toBe('DENY');
    await poll(() => page.locator('.swagger-ui .info .title').textContent()).toMatch(/^Model Gateway API/);
    await poll(() => page.locator('.opblock-summary-path', { hasText: '/api/v1/chat/completions' }).count()).toBeGreaterThan(0);
    await shot('docs');
    expect(problems).toEqual([]);
  });
});
