/**
 * Gemini's generateContent protocol (v1beta REST, JSON field names), as far
 * as the adapter writes and reads it. Response fields are all optional, as
 * Google leaves out what is empty; fields the adapter does not read
 * (safetyRatings, citationMetadata, Vertex AI's createTime…) are not listed.
 */

export interface GeminiFunctionCall {
  name?: string;
  args?: Record<string, unknown>;
  /** Vertex AI's streamed arguments: pieces of the value at a JSON path. */
  partialArgs?: GeminiPartialArg[];
  /** Vertex AI: more parts of this same call follow. */
  willContinue?: boolean;
}

export interface GeminiPartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: unknown;
  willContinue?: boolean;
}

export interface GeminiPart {
  text?: string;
  /** The text is a thought summary, not the answer. */
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: GeminiFunctionCall;
  functionResponse?: { name: string; response: Record<string, unknown> };
}

export interface GeminiContent {
  role?: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** Plain JSON Schema (the alternative `parameters` takes Google's OpenAPI subset). */
  parametersJsonSchema?: Record<string, unknown>;
}

export interface GeminiThinkingConfig {
  /** Gemini 2.5: a token budget, 0 for off, -1 for dynamic. */
  thinkingBudget?: number;
  /** Gemini 3: minimal, low, medium or high (what a model takes varies). */
  thinkingLevel?: 'minimal' | 'low' | 'medium' | 'high';
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
}

export interface GeminiFunctionCallingConfig {
  mode: 'AUTO' | 'ANY' | 'NONE';
  allowedFunctionNames?: string[];
}

export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: GeminiPart[] };
  tools?: ({ functionDeclarations: GeminiFunctionDeclaration[] } | { googleSearch: Record<string, never> })[];
  toolConfig?: { functionCallingConfig: GeminiFunctionCallingConfig };
  generationConfig?: GeminiGenerationConfig;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  /** Prompt tokens of built-in tool results (search, code execution). */
  toolUsePromptTokenCount?: number;
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  index?: number;
  /** With the google_search tool: the pages found and which spans of the text they support. */
  groundingMetadata?: GeminiGroundingMetadata;
}

export interface GeminiGroundingMetadata {
  webSearchQueries?: string[];
  groundingChunks?: { web?: { uri?: string; title?: string } }[];
  /** Spans of the answer (UTF-8 byte offsets) and the chunks that support each. */
  groundingSupports?: { segment?: { startIndex?: number; endIndex?: number; text?: string }; groundingChunkIndices?: number[] }[];
}

/** One whole response, or one event of a stream (the same shape, holding that event's delta). */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}
