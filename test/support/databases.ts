import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The engines a suite runs on: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set. Each database is private to its suite (a temp
 * file, or a fresh schema), so suites run in parallel without sharing rows.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface TestEngine {
  name: 'sqlite' | 'postgres';
  create(): Promise<TestDatabase>;
}

const sqlite: TestEngine = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'mg-test-'));
    return {
      url: `sqlite:${join(dir, 'gateway.sqlite')}`,
      async drop() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

function postgres(baseUrl: string): TestEngine {
  return {
    name: 'postgres',
    async create() {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const url = new URL(baseUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return {
        url: url.toString(),
        async drop() {
          const c = new pg.Client({ connectionString: baseUrl });
          await c.connect();
          await c.query(`DROP SCHEMA ${schema} CASCADE`);
          await c.end();
        },
      };
    },
  };
}

export const testEngines: TestEngine[] = [sqlite, ...(process.env.TEST_DATABASE_URL ? [postgres(process.env.TEST_DATABASE_URL)] : [])];
