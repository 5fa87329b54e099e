import { childRunner } from './child-runner.js';
import type { ParentMessage } from './protocol.js';

/**
 * An intern's process (forked by the supervisor with an IPC channel): relays
 * messages to the runner, and ends when the gateway goes away (the channel
 * closes), so no orphan outlives it.
 */
if (!process.send) throw new Error('child-entry must be started with an IPC channel (child_process.fork)');
const send = process.send.bind(process);
const runner = childRunner((message) => {
  if (process.connected) send(message);
});
process.on('message', (message) => runner.receive(message as ParentMessage));
process.on('disconnect', () => {
  void runner.close().finally(() => process.exit(0));
});
