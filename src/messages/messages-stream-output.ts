import type { StreamOutput } from '../chat/stream-output.js';
import type { SseWriter } from '../http/sse-writer.js';
import type { MessagesStreamEvent } from '../protocol/messages.js';
import { isRecord } from '../util/is-record.js';
import { convertToMessagesError } from './map-messages-error.js';
import { MessagesEventsFromChunks } from './messages-events-from-chunks.js';

/**
 * A POST /messages stream in Anthropic's named events. An untranslated
 * stream's events go as the upstream sent them, message_start naming the
 * generation and the gateway's model; a translated one's chunks become
 * events (MessagesEventsFromChunks). A failure after the start is an
 * `error` event, as Anthropic ends a stream that fails.
 */
export function messagesStreamOutput(sse: SseWriter): StreamOutput {
  let translated: MessagesEventsFromChunks | undefined;
  let native = false;
  const write = (event: MessagesStreamEvent) => sse.event(event.type, JSON.stringify(event));
  const writeAll = async (events: MessagesStreamEvent[]) => {
    for (const event of events) await write(event);
  };
  return {
    async send(chunk, event, identity) {
      if (event) {
        native = true;
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
    async end(usage, identity) {
      if (native) return;
      translated ??= new MessagesEventsFromChunks({ id: identity.id, model: identity.model });
      await writeAll(translated.finish(usage));
    },
    async fail(failure) {
      const { type, error } = convertToMessagesError(failure, null);
      await write({ type, error });
    },
  };
}
