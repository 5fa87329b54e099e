import type { ChatMessage } from '../../protocol/chat.js';
import type { TokenCounter } from '../shared/token-counter.js';
import { contentText, messageTokens } from './message-tokens.js';

export interface MiddleOutReport {
  tokensBefore: number;
  tokensAfter: number;
  /** Positions (in the original messages) of the messages taken out. */
  removed: number[];
  /** Messages kept but shortened in their middle, by original position. */
  truncated: { index: number; tokensBefore: number; tokensAfter: number }[];
}

export type MiddleOutResult =
  | ({ fits: true; messages: ChatMessage[] } & MiddleOutReport)
  /** Even the messages it must keep, cut to the bone, exceed the budget. */
  | ({ fits: false } & MiddleOutReport);

/** What stands in the middle of a shortened message. */
const MARKER = (removedTokens: number) => `\n[… ${removedTokens} tokens removed by context-compression …]\n`;

/**
 * The "middle-out" compression: when the messages exceed `budget` tokens,
 * whole messages are removed starting from the middle of the conversation
 * and moving outwards, because the middle matters least to a model: the
 * system and developer messages, the first exchange and the last one are
 * always kept. An assistant turn that called tools goes together with the
 * tool results that answer it (a provider refuses an orphan result). When
 * removing is not enough, the kept messages are shortened in their middle,
 * longest first, with a marker saying how much was cut.
 */
export function middleOut(messages: readonly ChatMessage[], budget: number, tokens: TokenCounter): MiddleOutResult {
  const costs = messages.map((message) => messageTokens(message, tokens));
  const tokensBefore = sum(costs);
  const report: MiddleOutReport = { tokensBefore, tokensAfter: tokensBefore, removed: [], truncated: [] };
  if (tokensBefore <= budget) return { fits: true, messages: [...messages], ...report };

  const kept = new Set(messages.keys());
  let total = tokensBefore;
  for (const unit of removalOrder(messages)) {
    if (total <= budget) break;
    for (const index of unit) {
      kept.delete(index);
      total -= costs[index] as number;
      report.removed.push(index);
    }
  }
  report.removed.sort((a, b) => a - b);

  const result = new Map<number, ChatMessage>([...kept].map((index) => [index, messages[index] as ChatMessage]));
  const cuttable = [...kept]
    .filter((index) => isCuttable(messages[index] as ChatMessage))
    .sort((a, b) => (costs[b] as number) - (costs[a] as number));
  for (const index of cuttable) {
    if (total <= budget) break;
    const message = messages[index] as ChatMessage;
    const before = costs[index] as number;
    const shortened = cutMiddle(message, Math.max(0, before - (total - budget)), tokens);
    const after = messageTokens(shortened, tokens);
    if (after >= before) continue;
    result.set(index, shortened);
    total -= before - after;
    report.truncated.push({ index, tokensBefore: before, tokensAfter: after });
  }
  report.tokensAfter = total;
  if (total > budget) return { fits: false, ...report };
  return { fits: true, messages: [...result.keys()].sort((a, b) => a - b).map((index) => result.get(index) as ChatMessage), ...report };
}

/**
 * The removable units (lists of positions), in the order they go: the
 * conversation's turns between its first and last turn, nearest the middle
 * first, alternating outwards. Instructions (system, developer) never go.
 */
function removalOrder(messages: readonly ChatMessage[]): number[][] {
  const units: number[][] = [];
  messages.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') return;
    const previous = units.at(-1);
    // A tool result belongs to the assistant turn (and the results) just before it.
    if (message.role === 'tool' && previous && messages[previous.at(-1) as number]?.role !== 'user') previous.push(index);
    else units.push([index]);
  });
  const middle = units.slice(1, -1);
  const center = (middle.length - 1) / 2;
  return middle
    .map((unit, position) => ({ unit, distance: Math.abs(position - center), position }))
    .sort((a, b) => a.distance - b.distance || a.position - b.position)
    .map(({ unit }) => unit);
}

/** Only text content can be cut; a message of images or files keeps what it has. */
const isCuttable = (message: ChatMessage) =>
  message.role !== 'system' &&
  message.role !== 'developer' &&
  (typeof message.content === 'string' || (Array.isArray(message.content) && message.content.every((part) => part.type === 'text')));

/** The message with the middle of its text replaced by a marker, to about `target` tokens if it can be. */
function cutMiddle(message: ChatMessage, target: number, tokens: TokenCounter): ChatMessage {
  const text = contentText(message.content);
  const textTokens = tokens.count(text);
  const fixed = messageTokens({ ...message, content: '' } as ChatMessage, tokens);
  const room = Math.max(0, target - fixed - tokens.count(MARKER(textTokens)));
  const head = tokens.head(text, Math.ceil(room / 2));
  const tail = tokens.tail(text, Math.floor(room / 2));
  return { ...message, content: `${head}${MARKER(textTokens - tokens.count(head) - tokens.count(tail))}${tail}` } as ChatMessage;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
