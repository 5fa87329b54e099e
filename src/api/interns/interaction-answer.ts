/**
 * The interactions intern chat surfaces as openrouter.provide_input calls, in
 * the SDK's shapes: a tool approval is a permission request, a question an
 * elicitation. A run's pending row holds `{kind: 'approval', id, name, arguments}`
 * or `{kind: 'question', id, question}`.
 */
export type Pending = { kind: 'approval'; id: string; name: string } | { kind: 'question'; id: string; question: string };

/** The permission option kinds the runtime honours (an "always" grant is not remembered, so it is not offered). */
const PERMISSION_OPTIONS = ['allow_once', 'reject_once'] as const;
const GRANTED = new Set(['allow_once', 'allow_always']);
const REFUSED = new Set(['reject_once', 'reject_always']);

/** The interaction id a caller answers as `tool_call_id`: the id of the intern's own tool call that asked. */
export const interactionId = (pending: { id: string }) => pending.id;

/** provide_input's arguments: `{"kind":"permission",…}` or `{"kind":"elicitation",…}`. */
export function interactionArguments(pending: Pending): string {
  if (pending.kind === 'approval') return JSON.stringify({ kind: 'permission', operation: pending.name, options: PERMISSION_OPTIONS });
  return JSON.stringify({
    kind: 'elicitation',
    message: pending.question,
    fields: [{ name: 'answer', type: 'string', description: pending.question }],
  });
}

/** The interaction of a pending row's value; undefined for anything the runtime does not write. */
export function pendingOf(value: unknown): Pending | undefined {
  const row = (value ?? {}) as Partial<Record<'kind' | 'id' | 'name' | 'question', unknown>>;
  if (typeof row.id !== 'string') return undefined;
  if (row.kind === 'approval') return { kind: 'approval', id: row.id, name: String(row.name ?? '') };
  if (row.kind === 'question') return { kind: 'question', id: row.id, question: String(row.question ?? '') };
  return undefined;
}

export function parsePending(text: string | null): Pending | undefined {
  if (!text) return undefined;
  try {
    return pendingOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * The caller's reply as the text the agent loop reads: a permission kind
 * becomes a grant ("approve") or a refusal; an elicitation reply
 * `{"action":"accept","content":{…}}` becomes its answer. Free text stands as
 * written, so a person typing "yes" or an answer is understood too.
 */
export function answerText(pending: Pending, reply: string): string {
  const trimmed = reply.trim();
  if (pending.kind === 'approval') {
    if (GRANTED.has(trimmed)) return 'approve';
    if (REFUSED.has(trimmed)) return 'the caller refused this call';
    if (trimmed === 'cancel') return 'the caller cancelled this call';
    return reply;
  }
  const elicitation = parseElicitation(trimmed);
  if (!elicitation) return reply;
  if (elicitation.action === 'decline') return 'The caller declined to answer.';
  if (elicitation.action === 'cancel') return 'The caller cancelled the question.';
  const content = elicitation.content;
  if (content && typeof content === 'object' && typeof (content as { answer?: unknown }).answer === 'string')
    return (content as { answer: string }).answer;
  return JSON.stringify(content ?? {});
}

function parseElicitation(text: string): { action: 'accept' | 'decline' | 'cancel'; content?: unknown } | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as { action?: unknown; content?: unknown };
    if (value.action === 'accept' || value.action === 'decline' || value.action === 'cancel')
      return { action: value.action, content: value.content };
  } catch {
    // Not JSON: free text.
  }
  return undefined;
}
