import { createServer } from 'node:net';

/** A start that cannot go on, with a message for the person who started it; printed without a stack. */
export class StartError extends Error {}

/**
 * What a failed listen means to the person who started the server, naming
 * the setting that changes it (`portSetting`: "PORT", or a flag too).
 */
export function listenFailure(error: unknown, host: string, port: number, portSetting: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return new StartError(`port ${port} on ${host} is taken by another program: set ${portSetting} to a free port`);
  if (code === 'EACCES') return new StartError(`port ${port} needs privileges this process lacks: set ${portSetting} to a port above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new StartError(`${host} is not an address of this machine: set HOST to one (127.0.0.1, 0.0.0.0)`);
  return error;
}

/**
 * Fails as listening would, before anything is opened or stored. The port can
 * still be taken between this check and the real listen; that listen then
 * fails the same way, and the gateway has still stored nothing of a user's.
 */
export async function assertCanListen(host: string, port: number, portSetting: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    throw listenFailure(error, host, port, portSetting);
  }
  await new Promise((resolve) => probe.close(resolve));
}
