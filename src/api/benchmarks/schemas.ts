import { Type } from 'typebox';
import { StringEnum } from '../../http/schema-helpers.js';

/** GET /benchmarks's query string, as the reference's (the Design Arena and search filters are checked, and select none of this gateway's items). */
export const BenchmarksQuery = Type.Object({
  source: Type.Optional(StringEnum(['artificial-analysis', 'design-arena', 'openrouter'])),
  task_type: Type.Optional(StringEnum(['coding', 'intelligence', 'agentic', 'search'])),
  benchmark_type: Type.Optional(
    StringEnum(['gpqa_diamond', 'tau_bench_verified_airline', 'search_browsecomp', 'search_hle', 'search_dsqa', 'search_widesearch']),
  ),
  include_run_config: Type.Optional(Type.Boolean()),
  search_engine: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  search_surface: Type.Optional(StringEnum(['server-tool', 'plugin'])),
  arena: Type.Optional(StringEnum(['models', 'builders', 'agents'])),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  max_results: Type.Optional(Type.Integer({ minimum: 1 })),
});
