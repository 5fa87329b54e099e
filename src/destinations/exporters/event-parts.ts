import { createHash } from 'node:crypto';
import type { GenerationEvent } from '../generation-event.js';

/**
 * The pieces every protocol builds its record from, so that each exporter
 * says only what its wire format adds: ids derived from the generation's (a
 * record sent twice is the same record), the end time, the completion as an
 * assistant message, and the metadata the destination's flags let through.
 */

/** 32 bytes fixed by the generation (and a salt, for a second id of the same generation). */
export const idDigest = (generationId: string, salt = ''): Buffer => createHash('sha256').update(`${salt}${generationId}`).digest();

/** A UUID (version 4 layout) fixed by the generation: for protocols whose ids must be UUIDs (LangSmith runs, PostHog events). */
export function uuidOf(generationId: string, salt = ''): string {
  const bytes = idDigest(generationId, salt).subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const startMs = (event: GenerationEvent): number => Date.parse(event.created_at);
export const endMs = (event: GenerationEvent): number => startMs(event) + (event.latency_ms ?? 0);
export const endTime = (event: GenerationEvent): string => new Date(endMs(event)).toISOString();

/** Whether the event carries content: only with the workspace's I/O logging on and the destination not in privacy mode (generation-event.ts). */
export const hasContent = (event: GenerationEvent): boolean => event.input !== undefined;

/** The completion as the one assistant message most protocols expect, or none. */
export const outputMessages = (event: GenerationEvent): { role: 'assistant'; content: string }[] =>
  typeof event.output === 'string' ? [{ role: 'assistant', content: event.output }] : [];

/** The request's messages when they are the chat shape (an array), else none: a protocol that wants a list of messages gets one. */
export const inputMessages = (event: GenerationEvent): unknown[] => (Array.isArray(event.input) ? event.input : []);

/** What every protocol's free-form metadata holds: the request's facts, and the context and identity the flags let through. */
export function eventMetadata(event: GenerationEvent): Record<string, string | number | boolean | null> {
  return {
    provider: event.provider,
    api_type: event.api_type,
    status: event.status,
    finish_reason: event.finish_reason,
    ...(event.request_context ?? {}),
    ...(event.identity ? { api_key_name: event.identity.api_key_name, workspace_id: event.identity.workspace_id } : {}),
  };
}
