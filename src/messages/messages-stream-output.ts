import type { StreamOutput } from '../chat/stream-output.js';
import type { SseWriter } from '../http/sse-writer.js';
import type { MessagesStreamEvent } from '../protocol/messages.js';
import { isRecord } from '../util/is-record.js';
import { convertToMessagesError } from './map-messages-error.js';
import { MessagesEventsFromChunks } from './messages-events-from-chunks.js';
import { ownEvent } from './own-message.js';

/** The events an untranslated stream ends with, held back until the run is billed. */
const CLOSING = new Set(['message_delta', 'message_stop']);

/**
 * A POST /messages stream in Anthropic's named events. An untranslated
 * stream's events go as the upstream sent them, message_start naming the
 * generation and the gateway's model; a translated one's chunks become
 * events (MessagesEventsFromChunks). Either way message_delta and
 * message_stop go once the ledger row is written, as chat's last chunk
 * does: message_delta's usage with the cost billed, message_stop with
 * service_metadata when asked. Every event has the fields the reference's
 * has (ownEvent). A failure after the start is an `error` event, as
 * Anthropic ends a stream that fails.
 */
export function messagesStreamOutput(sse: Pick<SseWriter, 'event'>): StreamOutput {
  let translated: MessagesEventsFromChunks | undefined;
  let native = false;
  const closing: MessagesStreamEvent[] = [];
  const write = (event: MessagesStreamEvent) => sse.event(event.type, JSON.stringify(ownEvent(event)));
  const writeAll = async (events: MessagesStreamEvent[]) => {
    for (const event of events) await write(event);
  };
  return {
    async send(chunk, event, identity) {
      if (event) {
        native = true;
        if (CLOSING.has(event.type)) return void closing.push(event);
        return write(
          event.type === 'message_start' && isRecord(event.message)
            ? { ...event, message: { ...event.message, id: identity.id, model: identity.model } }
            : event,
        );
      }
      // An untranslated stream has said all there is; the gateway's own chunks (citations) have no Messages counterpart.
      if (!chunk || native) return;
      translated ??= new MessagesEventsFromChunks({ id: identity.id, model: identity.model });
      await writeAll(translated.chunk(chunk));
    },
    async end({ usage, serviceMetadata }, identity) {
      if (!native) {
        translated ??= new MessagesEventsFromChunks({ id: identity.id, model: identity.model });
        return writeAll(translated.finish(usage, serviceMetadata));
      }
      // The upstream's own counts stay; the cost and service_metadata are the gateway's.
      await writeAll(
        closing.map((event) =>
          event.type === 'message_delta'
            ? { ...event, usage: { ...(isRecord(event.usage) ? event.usage : {}), cost: usage.cost } }
            : serviceMetadata === undefined
              ? event
              : { ...event, service_metadata: serviceMetadata },
        ),
      );
    },
    async fail(failure) {
      const { type, error } = convertToMessagesError(failure, null);
      await write({ type, error });
    },
  };
}
