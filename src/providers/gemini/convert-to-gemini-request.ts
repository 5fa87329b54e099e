import type { ChatRequest, FunctionTool, ResponseFormat, ToolChoice } from '../../protocol/chat.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';
import { convertToGeminiThinkingConfig } from './convert-to-gemini-thinking-config.js';
import type { GeminiFunctionCallingConfig, GeminiFunctionDeclaration, GeminiGenerationConfig, GeminiRequest } from './gemini-api-types.js';
import { isGemini3OrLater } from './is-gemini-3-or-later.js';

/**
 * The generateContent body for a canonical request (pure); the same for
 * generateContent and streamGenerateContent, which differ only in the URL.
 * A parameter is sent when the endpoint lists it, or lists nothing.
 *
 * Schemas (tool parameters, response_format's json_schema) go as plain JSON
 * Schema in parametersJsonSchema and responseJsonSchema rather than converted
 * to the OpenAPI subset of `parameters`/`responseSchema`: what clients write
 * ($ref/$defs, anyOf, type arrays for nullables, additionalProperties) is
 * kept instead of being lost in a lossy conversion, and keywords Gemini does
 * not implement are Gemini's to ignore.
 *
 * Not sent, as Gemini has no counterpart: the end user's hash (no user field
 * exists), logit_bias, logprobs, parallel_tool_calls, service_tier, metadata,
 * cache_control (Gemini caches prompt prefixes by itself), prediction, and
 * the gateway's own fields.
 */
export function convertToGeminiRequest(request: ChatRequest, target: UpstreamTarget): GeminiRequest {
  const listed = target.supportedParameters;
  const accepts = (name: string) => listed === undefined || listed.includes(name);
  const gemini3 = isGemini3OrLater(target.upstreamModel);

  const body: GeminiRequest = convertToGeminiContents(request.messages, { signFunctionCalls: gemini3 });
  if (request.tools?.length && accepts('tools')) {
    body.tools = [{ functionDeclarations: request.tools.map(convertTool) }];
    if (request.tool_choice !== undefined && accepts('tool_choice')) {
      body.toolConfig = { functionCallingConfig: convertToolChoice(request.tool_choice) };
    }
  }

  // Native search (the web plugin's engine "native"): Google Search grounding, which takes no settings.
  if (request.web_search_options && accepts('web_search_options')) body.tools = [...(body.tools ?? []), { googleSearch: {} }];

  const config: GeminiGenerationConfig = {};
  const set = <K extends keyof GeminiGenerationConfig>(field: K, value: GeminiGenerationConfig[K] | null | undefined, sent: boolean) => {
    // null means "the upstream's default", the same as leaving the field out.
    if (sent && value != null) config[field] = value;
  };
  set('temperature', request.temperature, accepts('temperature'));
  set('topP', request.top_p, accepts('top_p'));
  set('topK', request.top_k, accepts('top_k'));
  set('maxOutputTokens', request.max_completion_tokens ?? request.max_tokens, accepts('max_tokens') || accepts('max_completion_tokens'));
  set('stopSequences', typeof request.stop === 'string' ? [request.stop] : request.stop, accepts('stop'));
  set('seed', request.seed, accepts('seed'));
  set('presencePenalty', request.presence_penalty, accepts('presence_penalty'));
  set('frequencyPenalty', request.frequency_penalty, accepts('frequency_penalty'));
  if (request.response_format && accepts('response_format')) Object.assign(config, convertResponseFormat(request.response_format));
  set('thinkingConfig', convertToGeminiThinkingConfig(request, target.upstreamModel), accepts('reasoning'));
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}

function convertTool({ function: declared }: FunctionTool): GeminiFunctionDeclaration {
  return {
    name: declared.name,
    ...(declared.description !== undefined ? { description: declared.description } : {}),
    ...(declared.parameters !== undefined ? { parametersJsonSchema: declared.parameters } : {}),
  };
}

function convertToolChoice(choice: ToolChoice): GeminiFunctionCallingConfig {
  switch (choice) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    default:
      return { mode: 'ANY', allowedFunctionNames: [choice.function.name] };
  }
}

/** JSON output for json_object and json_schema; the other formats have no Gemini counterpart. */
function convertResponseFormat(format: ResponseFormat): Pick<GeminiGenerationConfig, 'responseMimeType' | 'responseJsonSchema'> {
  switch (format.type) {
    case 'json_object':
      return { responseMimeType: 'application/json' };
    case 'json_schema': {
      const { schema } = format.json_schema;
      return schema ? { responseMimeType: 'application/json', responseJsonSchema: schema } : { responseMimeType: 'application/json' };
    }
    default:
      return {};
  }
}
