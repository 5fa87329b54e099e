import { Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.js';
import { Content, ContentPart, NullableContent, TextOnlyPart } from './content-schemas.js';
import { DiscriminatedUnion } from './union-schemas.js';

/*
 * Assistant and tool content is limited to text parts, as in the canonical
 * ChatRequest (src/protocol/chat.ts); the reference also allows media parts there.
 */

const instructionMessage = <R extends 'system' | 'developer'>(role: R) =>
  Type.Object({
    role: Type.Literal(role),
    content: Content(TextOnlyPart),
    name: Type.Optional(Type.String()),
  });

const UserMessage = Type.Object({
  role: Type.Literal('user'),
  content: Content(ContentPart),
  name: Type.Optional(Type.String()),
});

const ToolCall = DiscriminatedUnion('type', [
  Type.Object({
    id: Type.String(),
    type: Type.Literal('function'),
    function: Type.Object({ name: Type.String(), arguments: Type.String() }),
  }),
]);

const AssistantMessage = Type.Object({
  role: Type.Literal('assistant'),
  content: Type.Optional(NullableContent(TextOnlyPart)),
  name: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(ToolCall)),
  reasoning: Type.Optional(Nullable(Type.String())),
  refusal: Type.Optional(Nullable(Type.String())),
  /** The model that wrote the turn (reference ChatAssistantMessage); the auto-router's pin_model reads it. */
  model: Type.Optional(Type.String()),
});

const ToolMessage = Type.Object({
  role: Type.Literal('tool'),
  content: Content(TextOnlyPart),
  tool_call_id: Type.String(),
});

/** One conversation turn, told apart by `role`. */
export const ChatMessage = DiscriminatedUnion('role', [
  instructionMessage('system'),
  UserMessage,
  instructionMessage('developer'),
  AssistantMessage,
  ToolMessage,
]);
