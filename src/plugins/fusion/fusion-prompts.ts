import type { ChatMessage, SystemMessage } from '../../protocol/chat.js';
import { searchQueryOf } from '../web/search-results-message.js';

/** One panelist's answer, as the analyst reads it. */
export interface PanelAnswer {
  model: string;
  content: string;
}

const PANEL_PROMPT =
  'You are one expert of a panel answering the question below independently. Research it with the tools you have when they help ' +
  '(search the web, read the pages that matter), then answer thoroughly and precisely, citing the URLs of your sources.';

const ANALYST_PROMPT =
  'You are the analyst of an expert panel. Several models answered the same question independently. Compare their answers and ' +
  'verify disputed facts with your tools when they help. Reply with one JSON object: {"consensus": [points the experts agree on], ' +
  '"disagreements": [{"point", "positions", "assessment"}], "unique_insights": [points only one expert made that hold], ' +
  '"sources": [URLs worth citing], "confidence": "high" | "medium" | "low"}.';

const SYNTHESIS_PROMPT =
  'An expert panel researched this conversation and an analyst summarized their answers as the JSON below. Write the final answer ' +
  'to the user from it: rely on the consensus, settle or state the disagreements, keep the useful unique insights and cite the ' +
  'sources. Do not mention the panel.';

/** What each panelist is asked: the conversation, under the panel's instructions. */
export function panelMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return [{ role: 'system', content: PANEL_PROMPT }, ...messages];
}

/** What the analyst is asked: the question and every answer, numbered with the model that gave it. */
export function analystMessages(messages: readonly ChatMessage[], answers: readonly PanelAnswer[]): ChatMessage[] {
  const question = searchQueryOf(messages) ?? '';
  const listed = answers.map((answer, i) => `### Expert ${i + 1} (${answer.model})\n${answer.content}`);
  return [
    { role: 'system', content: ANALYST_PROMPT },
    { role: 'user', content: [`Question: ${question}`, 'Panel answers:', ...listed].join('\n\n') },
  ];
}

/** The synthesis: the conversation with the analysis in a system message before it. */
export function synthesisMessages(messages: readonly ChatMessage[], analysis: string): ChatMessage[] {
  const brief: SystemMessage = { role: 'system', content: `${SYNTHESIS_PROMPT}\n\n${analysis}` };
  return [brief, ...messages];
}
