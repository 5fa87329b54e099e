import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../../../test/support/databases.js';
import { openStore, type Store } from '../database.js';
import { migrateTo, migrateToLatest } from '../migrate.js';

describe.each(testEngines)('migration 0045-workspace-presets on $name', (engine) => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await engine.create();
    store = openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('keeps presets and their versions, makes slugs unique per workspace, and moves interns to a workspace of theirs', async () => {
    await migrateTo(store, '0041-dataset-rollups');
    const at = '2026-11-20T10:00:00.000Z';
    await sql`insert into organizations (id, name, slug, is_default, created_at) values ('o1', 'O', 'o', 1, ${at})`.execute(store.db);
    await sql`insert into workspaces (id, organization_id, name, slug, is_default, created_at) values
      ('w1', 'o1', 'Default', 'default', 1, ${at}), ('w2', 'o1', 'Team', 'team', 0, ${at})`.execute(store.db);
    await sql`insert into presets (id, organization_id, workspace_id, slug, name, designated_version_id, created_at, updated_at)
      values ('p1', 'o1', 'w1', 'fast', 'Fast', 'v1', ${at}, ${at})`.execute(store.db);
    await sql`insert into preset_versions (id, preset_id, version, creator_id, config, created_at)
      values ('v1', 'p1', 1, 'u', '{}', ${at})`.execute(store.db);
    const intern = (id: string, workspace: string) =>
      sql`insert into interns (id, organization_id, workspace_id, name, status, settings, created_at, updated_at)
        values (${id}, 'o1', ${workspace}, ${id}, 'queued', '{}', ${at}, ${at})`.execute(store.db);
    await intern('i-id', 'w2');
    await intern('i-slug', 'team');
    await intern('i-stray', 'ws_other');
    expect(await migrateToLatest(store)).toContain('0045-workspace-presets');

    expect(await store.db.selectFrom('preset_versions').select(['id', 'preset_id']).execute()).toEqual([{ id: 'v1', preset_id: 'p1' }]);
    const preset = (id: string, workspace: string) =>
      sql`insert into presets (id, organization_id, workspace_id, slug, name, created_at, updated_at)
        values (${id}, 'o1', ${workspace}, 'fast', 'Fast', ${at}, ${at})`.execute(store.db);
    await preset('p2', 'w2');
    await expect(preset('p3', 'w1')).rejects.toThrow(/unique/i);
    // Its versions still go with a deleted preset.
    await store.db.deleteFrom('presets').where('id', '=', 'p1').execute();
    expect(await store.db.selectFrom('preset_versions').select('id').execute()).toEqual([]);

    const interns = await store.db.selectFrom('interns').select(['id', 'workspace_id']).orderBy('id').execute();
    expect(interns).toEqual([
      { id: 'i-id', workspace_id: 'w2' },
      { id: 'i-slug', workspace_id: 'w2' },
      { id: 'i-stray', workspace_id: 'w1' },
    ]);
  });
});
