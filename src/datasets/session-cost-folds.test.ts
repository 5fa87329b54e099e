import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../test/support/databases.js';
import { openStore, type Store } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { organizationReach, type Reach } from '../store/reach.js';
import { sessionCostsOfWindow, sessionWindowEnd } from '../store/repositories/session-cost-folds.js';
import type { SessionUsageTable } from '../store/schema.js';
import { RELATIVE_ERROR } from './cost-sketch.js';
import { sessionCostCells } from './session-cost.js';
import { daysToFold, foldSessionCosts, turnRange } from './session-cost-folds.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const WINDOW = { start: '2026-10-23', end: '2026-11-21' };

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}
const pick = <T>(random: () => number, items: readonly T[]) => items[Math.floor(random() * items.length)]!;

/** Random session parts of two organizations, over days inside and outside the window. */
function sessions(count: number, seed: number): SessionUsageTable[] {
  const random = seeded(seed);
  const days = ['2026-10-01', '2026-10-23', '2026-11-01', '2026-11-20', '2026-11-21', '2026-11-22'];
  return Array.from({ length: count }, (_, i) => {
    const app = pick(random, ['alpha', 'beta', '']);
    return {
      organization_id: pick(random, ['o1', 'o1', 'o2']),
      workspace_id: pick(random, ['w1', 'w2']),
      session_id: `s${i}`,
      app,
      model: pick(random, ['m/a', 'm/b']),
      app_name: app === '' ? '' : `${app} ${pick(random, ['App', 'app'])}`,
      turns: pick(random, [0, 1, 1, 2, 5, 9, 10, 30, 50, 70]),
      cost: pick(random, [0, 10 ** (-5 + 4 * random())]),
      last_day: pick(random, days),
    };
  });
}

/** The cells as the route answered before folds: every session part of the window sorted, per cell. */
function exactCells(rows: readonly SessionUsageTable[], reach: Reach) {
  const cells = new Map<string, { app: string; app_name: string; model: string; turn_range: string; costs: number[] }>();
  for (const row of rows) {
    if (row.organization_id !== reach.organizationId || (reach.workspaceId !== null && row.workspace_id !== reach.workspaceId)) continue;
    if (row.last_day < WINDOW.start || row.last_day > WINDOW.end || row.turns <= 0 || row.app === '') continue;
    const turn_range = turnRange(row.turns);
    const key = `${row.app}/${row.model}/${turn_range}`;
    const cell = cells.get(key) ?? { app: row.app, app_name: '', model: row.model, turn_range, costs: [] };
    cell.costs.push(row.cost);
    if (row.app_name > cell.app_name) cell.app_name = row.app_name;
    cells.set(key, cell);
  }
  return [...cells.values()].map(({ costs, ...cell }) => {
    const sorted = costs.sort((a, b) => a - b);
    const middle = sorted.length / 2;
    const median = sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    return { ...cell, median };
  });
}

describe.each(testEngines)('folding session costs on $name', (engine) => {
  let database: TestDatabase;
  let store: Store;
  beforeEach(async () => {
    database = await engine.create();
    store = openStore(database.url);
    await migrateToLatest(store);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  const expectFoldedToMatch = async (rows: readonly SessionUsageTable[], reach: Reach) => {
    const folded = sessionCostCells(await sessionCostsOfWindow(store.db, reach, WINDOW, {}));
    const exact = exactCells(rows, reach);
    const key = (cell: { app: string; model: string; turn_range: string }) => `${cell.app}/${cell.model}/${cell.turn_range}`;
    expect(folded.map(key).sort()).toEqual(exact.map(key).sort());
    for (const cell of exact) {
      const found = folded.find((f) => key(f) === key(cell))!;
      expect(found.app_name).toBe(cell.app_name);
      expect(Math.abs(found.median - cell.median)).toBeLessThanOrEqual(cell.median * RELATIVE_ERROR);
    }
  };

  it('answers the medians of a direct computation, per organization and workspace, and follows sessions that go on', async () => {
    const rows = sessions(400, 42);
    await store.db.insertInto('session_usage').values(rows).execute();
    // Two organizations with rows, days of the window that have some: each day of each folded once.
    expect(await foldSessionCosts(store, NOW)).toBe(8);
    await expectFoldedToMatch(rows, organizationReach('o1'));
    await expectFoldedToMatch(rows, { organizationId: 'o1', workspaceId: 'w2' });
    await expectFoldedToMatch(rows, organizationReach('o2'));
    expect(await foldSessionCosts(store, NOW)).toBe(0);
    // Those answers came from the merged window; the daily folds (read until a fold merges a new window) say the same.
    expect(await sessionWindowEnd(store.db, 'o1')).toBe(WINDOW.end);
    await store.db.deleteFrom('session_cost_window').execute();
    await expectFoldedToMatch(rows, organizationReach('o1'));
    await expectFoldedToMatch(rows, { organizationId: 'o1', workspaceId: 'w2' });
    expect(await foldSessionCosts(store, NOW)).toBe(0);
    expect(await sessionWindowEnd(store.db, 'o1')).toBe(WINDOW.end);

    // A session of 11-20 goes on today: it leaves 11-20, whose fold is redone; the others stand.
    const moved = rows.find((row) => row.organization_id === 'o1' && row.last_day === '2026-11-20' && row.turns > 0 && row.app !== '')!;
    moved.last_day = '2026-11-22';
    await store.db
      .updateTable('session_usage')
      .set({ last_day: moved.last_day })
      .where('organization_id', '=', 'o1')
      .where('session_id', '=', moved.session_id)
      .execute();
    expect(await foldSessionCosts(store, NOW)).toBe(1);
    await expectFoldedToMatch(rows, organizationReach('o1'));

    // Weeks later, the days before the window are forgotten.
    await foldSessionCosts(store, new Date('2026-12-15T12:00:00.000Z'));
    const days = await store.db.selectFrom('session_cost_daily').select('day').distinct().execute();
    expect(days.map((row) => row.day).every((day) => day >= '2026-11-15')).toBe(true);
    expect(days.length).toBeGreaterThan(0);
  });
});

describe('daysToFold', () => {
  const days = ['2026-11-20', '2026-11-21'];
  const folded = (parts: number, folded_at: string) => ({ parts, folded_at });
  it('folds a day with parts not folded yet, or whose parts changed, and not a settled one', () => {
    expect(daysToFold(days, new Map([['2026-11-21', 3]]), new Map(), NOW)).toEqual(['2026-11-21']);
    const states = new Map([
      ['2026-11-20', folded(2, '2026-11-21T05:00:00.000Z')],
      ['2026-11-21', folded(3, '2026-11-22T05:00:00.000Z')],
    ]);
    expect(daysToFold(days, new Map([['2026-11-21', 3]]), states, NOW)).toEqual(['2026-11-20']);
    expect(
      daysToFold(
        days,
        new Map([
          ['2026-11-20', 2],
          ['2026-11-21', 3],
        ]),
        states,
        NOW,
      ),
    ).toEqual([]);
  });

  it('folds a day again once its late rows have landed, when it was folded before', () => {
    const states = new Map([['2026-11-21', folded(3, '2026-11-22T00:10:00.000Z')]]);
    const parts = new Map([['2026-11-21', 3]]);
    expect(daysToFold(days, parts, states, new Date('2026-11-22T00:30:00.000Z'))).toEqual([]);
    expect(daysToFold(days, parts, states, new Date('2026-11-22T01:10:00.000Z'))).toEqual(['2026-11-21']);
  });
});
