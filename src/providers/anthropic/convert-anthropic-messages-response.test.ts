import { describe, expect, it } from 'vitest';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import type { AnthropicMessagesResponse } from './anthropic-messages-api-types.js';
import { convertAnthropicMessagesResponse } from './convert-anthropic-messages-response.js';

const CREATED = 1_770_000_000;
const convertRecording = (name: string) => convertAnthropicMessagesResponse(readFixtureJson(name) as AnthropicMessagesResponse, CREATED);

describe('convertAnthropicMessagesResponse', () => {
  it('maps anthropic-text: text, end_turn, usage with zero cache counts, no fingerprint', () => {
    expect(convertRecording('anthropic/anthropic-text.json')).toStrictEqual({
      id: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
      object: 'chat.completion',
      created: CREATED,
      model: 'claude-sonnet-4-5-20250929',
      system_fingerprint: null,
      service_tier: 'standard',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
          },
          finish_reason: 'stop',
          native_finish_reason: 'end_turn',
        },
      ],
      usage: {
        prompt_tokens: 12,
        completion_tokens: 29,
        total_tokens: 41,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      },
    });
  });

  it('maps anthropic-tool-no-args: text before a tool call whose empty input becomes "{}"', () => {
    const [choice] = convertRecording('anthropic/anthropic-tool-no-args.json').choices;
    expect(choice?.message.content).toMatch(/^<thinking>\nThe updateIssueList tool/);
    expect(choice?.message.tool_calls).toEqual([
      { id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1', type: 'function', function: { name: 'updateIssueList', arguments: '{}' } },
    ]);
    expect(choice).toMatchObject({ finish_reason: 'tool_calls', native_finish_reason: 'tool_use' });
  });

  it('maps issue-10372-tool-use: a tool call alone, null content, input as JSON arguments, `caller` dropped', () => {
    const completion = convertRecording('anthropic/issue-10372-tool-use.1.json');
    expect(completion.choices[0]?.message).toStrictEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'toolu_011GReSD6Lexm9Bs3tXwTC7L', type: 'function', function: { name: 'getWeather', arguments: '{"city":"Tokyo"}' } },
      ],
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 833, completion_tokens: 24, total_tokens: 857 });
  });

  it('maps anthropic-clear-thinking: the thinking block becomes reasoning, its signature is not sent', () => {
    const completion = convertRecording('anthropic/anthropic-clear-thinking.1.json');
    expect(completion.choices[0]?.message).toStrictEqual({
      role: 'assistant',
      content: '925 ÷ 5 = 185',
      reasoning: '925 divided by 5 = 185',
    });
    expect(JSON.stringify(completion)).not.toMatch(/signature|context_management/);
  });

  it('leaves out server tool blocks and redacted thinking, and maps a refusal to content_filter', () => {
    const completion = convertAnthropicMessagesResponse(
      {
        content: [
          { type: 'redacted_thinking' },
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
          { type: 'web_search_tool_result' },
          { type: 'text', text: 'I cannot help with that.' },
        ],
        stop_reason: 'refusal',
      },
      CREATED,
    );
    expect(completion.choices[0]).toStrictEqual({
      index: 0,
      message: { role: 'assistant', content: 'I cannot help with that.' },
      finish_reason: 'content_filter',
      native_finish_reason: 'refusal',
    });
    expect(completion).not.toHaveProperty('usage');
  });
});

describe('native web search in a Message', () => {
  // The shape of Anthropic's web search answers (as recorded by vercel/ai's anthropic-web-search-tool.1.json), trimmed.
  const searched: AnthropicMessagesResponse = {
    id: 'msg_01PHHrjzLH4teUMhgkGgqYYc',
    model: 'claude-sonnet-4-20250514',
    content: [
      { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'tech news today' } },
      { type: 'web_search_tool_result', id: 'srvtoolu_01' },
      { type: 'text', text: 'Key news:\n' },
      {
        type: 'text',
        text: 'Caroline Ellison has been sentenced to two years.',
        citations: [
          {
            type: 'web_search_result_location',
            cited_text: 'Daily Tech News 26 September 2024 · Top Story Caroline Ellison ...',
            url: 'https://acecomments.mu.nu/?post=411647',
            title: 'Daily Tech News 26 September 2024',
          },
        ],
      },
      { type: 'text', text: ' 🌍 More:' },
      {
        type: 'text',
        text: 'DeepSeek unveiled R1.',
        citations: [{ type: 'web_search_result_location', url: 'https://www.crescendo.ai/news', title: null, cited_text: 'DeepSeek ...' }],
      },
    ],
    stop_reason: 'end_turn',
  };

  it('makes each cited text block a url_citation over its span, and leaves the search blocks out', () => {
    const message = convertAnthropicMessagesResponse(searched, CREATED).choices[0]!.message;
    const content = message.content!;
    expect(content).toBe('Key news:\nCaroline Ellison has been sentenced to two years. 🌍 More:DeepSeek unveiled R1.');
    expect(message.annotations).toEqual([
      {
        type: 'url_citation',
        url_citation: {
          url: 'https://acecomments.mu.nu/?post=411647',
          title: 'Daily Tech News 26 September 2024',
          content: 'Daily Tech News 26 September 2024 · Top Story Caroline Ellison ...',
          start_index: 10,
          end_index: 59,
        },
      },
      // Positions in code points: the globe is one, not two UTF-16 units.
      {
        type: 'url_citation',
        url_citation: {
          url: 'https://www.crescendo.ai/news',
          title: 'https://www.crescendo.ai/news',
          content: 'DeepSeek ...',
          start_index: 67,
          end_index: 88,
        },
      },
    ]);
    expect([...content].slice(67, 88).join('')).toBe('DeepSeek unveiled R1.');
    expect(message.tool_calls).toBeUndefined();
  });
});
