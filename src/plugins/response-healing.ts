import { jsonrepair } from 'jsonrepair';
import { checkAgainstSchema } from './json-schema-check.js';
import type { PipelineEntry } from './pipeline-entry.js';
import type { ResponseStage } from './response-stage.js';

type Healing =
  | { outcome: 'valid'; schema?: string[] }
  | { outcome: 'repaired'; content: string; parseError: string; schema?: string[] }
  | { outcome: 'unhealable'; reason: string };

const parse = (text: string): { ok: true; value: unknown } | { ok: false; error: string } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
};

/** Schema problems of a value, or undefined when there is no schema or the value meets it. */
function schemaProblems(schema: Record<string, unknown> | undefined, value: unknown): string[] | undefined {
  if (!schema) return undefined;
  const check = checkAgainstSchema(schema, value);
  if (check.ok) return undefined;
  return 'unusable' in check ? [`schema not checked: ${check.unusable}`] : check.errors;
}

/** One message's JSON: as it is when it parses, repaired by jsonrepair when it does not. */
export function healJson(content: string, schema: Record<string, unknown> | undefined): Healing {
  const parsed = parse(content);
  if (parsed.ok) {
    const problems = schemaProblems(schema, parsed.value);
    return { outcome: 'valid', ...(problems ? { schema: problems } : {}) };
  }
  let repaired: string;
  try {
    repaired = jsonrepair(content);
  } catch (error) {
    return { outcome: 'unhealable', reason: `${parsed.error}; jsonrepair: ${error instanceof Error ? error.message : String(error)}` };
  }
  const reparsed = parse(repaired);
  if (!reparsed.ok) return { outcome: 'unhealable', reason: `${parsed.error}; repaired text still invalid: ${reparsed.error}` };
  const problems = schemaProblems(schema, reparsed.value);
  return { outcome: 'repaired', content: repaired, parseError: parsed.error, ...(problems ? { schema: problems } : {}) };
}

const entry = (summary: string, data: Record<string, unknown>): PipelineEntry => ({
  type: 'response_healing',
  name: 'response-healing',
  summary,
  data,
});

/**
 * The `response-healing` plugin, for non-streaming requests asking for JSON
 * (`response_format` json_object or json_schema): output that does not parse
 * is repaired with jsonrepair (markdown fences, trailing commas, single
 * quotes, truncated output closed), then checked against the schema; what
 * was repaired and what the schema still refuses is recorded. Output that
 * cannot be repaired is left as the model sent it, with a recorded skip.
 */
export const responseHealingStage: ResponseStage = {
  name: 'response-healing',
  applies: (run) =>
    run.plugins?.has('response-healing') === true &&
    !run.request.stream &&
    (run.request.response_format?.type === 'json_object' || run.request.response_format?.type === 'json_schema'),
  run(run, completion) {
    const format = run.request.response_format;
    const schema = format?.type === 'json_schema' ? format.json_schema.schema : undefined;
    const entries: PipelineEntry[] = [];
    const choices = completion.choices.map((choice) => {
      const content = choice.message.content;
      if (typeof content !== 'string') {
        entries.push(entry(`Skipped: choice ${choice.index} has no text content`, { choice: choice.index, action: 'skipped' }));
        return choice;
      }
      const healing = healJson(content, schema);
      const schemaData =
        healing.outcome !== 'unhealable' && healing.schema
          ? { schema_valid: false, schema_errors: healing.schema }
          : schema
            ? { schema_valid: true }
            : {};
      if (healing.outcome === 'valid') {
        entries.push(
          entry(`Valid JSON${healing.schema ? ', but it does not match the schema' : ''}: nothing to repair`, {
            choice: choice.index,
            action: 'none',
            ...schemaData,
          }),
        );
        return choice;
      }
      if (healing.outcome === 'unhealable') {
        entries.push(
          entry(`Skipped: the output could not be repaired (${healing.reason})`, {
            choice: choice.index,
            action: 'skipped',
            reason: healing.reason,
          }),
        );
        return choice;
      }
      entries.push(
        entry(`Repaired malformed JSON (${healing.parseError})${healing.schema ? '; it still does not match the schema' : ''}`, {
          choice: choice.index,
          action: 'repaired',
          parse_error: healing.parseError,
          original_length: content.length,
          repaired_length: healing.content.length,
          ...schemaData,
        }),
      );
      return { ...choice, message: { ...choice.message, content: healing.content } };
    });
    return { completion: { ...completion, choices }, entries };
  },
};
