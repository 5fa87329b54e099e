import { describe, expect, it } from 'vitest';
import { GatewayError } from '../protocol/gateway-error.js';
import { convertToMessagesError, messagesErrorType } from './map-messages-error.js';

describe('messagesErrorType', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [402, 'billing_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [408, 'timeout_error'],
    [409, 'invalid_request_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [502, 'api_error'],
    [503, 'overloaded_error'],
    [504, 'timeout_error'],
    [529, 'overloaded_error'],
    [599, 'api_error'],
  ])('%i is %s', (status, type) => {
    expect(messagesErrorType(status)).toBe(type);
  });
});

describe('convertToMessagesError', () => {
  it("is Anthropic's error body, the gateway's metadata beside the message", () => {
    expect(
      convertToMessagesError(new GatewayError('GW_ERR_CREDITS_SPENT', 402, 'Insufficient credits', { limit: 'api_key' }), 'req-1'),
    ).toEqual({
      type: 'error',
      error: { type: 'billing_error', message: 'Insufficient credits', metadata: { limit: 'api_key' } },
      request_id: 'req-1',
    });
    expect(convertToMessagesError(new GatewayError('GW_ERR_INVALID_REQUEST', 400, 'max_tokens is required'), null)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens is required' },
      request_id: null,
    });
  });
});
