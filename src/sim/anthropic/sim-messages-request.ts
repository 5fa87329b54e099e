/** A Messages API request that passed the simulator's validation; read leniently beyond what the reply needs. */
export interface SimMessagesRequest {
  model: string;
  max_tokens: number;
  messages: { role: 'user' | 'assistant'; content: string | SimContentBlock[] }[];
  system?: string | SimContentBlock[];
  stream?: boolean;
  stop_sequences?: string[];
  /** Client tools, and Anthropic's server tools, which carry a versioned `type` (web_search_20250305). */
  tools?: { name: string; type?: string; description?: string; input_schema?: Record<string, unknown> }[];
  tool_choice?: { type: 'auto' | 'any' | 'none' } | { type: 'tool'; name: string };
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' | 'adaptive' };
  temperature?: number;
  /** Structured outputs: the text is JSON valid against the schema. */
  output_config?: { effort?: string | null; format?: { type: 'json_schema'; schema: Record<string, unknown> } | null };
}

/** A content block: text and a tool_result's content are read, the rest (images, tool_use, documents) only counted as present. */
export interface SimContentBlock {
  type: string;
  text?: string;
  /** A tool_result's: a string or text blocks. */
  content?: string | SimContentBlock[];
}
