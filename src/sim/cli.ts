export const DEFAULT_SIM_PORT = 8081;

/** `model-gateway sim [--port N]`: the simulator in the foreground until SIGINT or SIGTERM. */
export async function runSimulator(options: { host?: string; port?: number } = {}): Promise<void> {
  // Imported when run: the simulator's modules would slow the start of every other command of the CLI.
  const { startSimulator } = await import('./server.js');
  const simulator = await startSimulator({ host: options.host, port: options.port ?? DEFAULT_SIM_PORT });
  process.stdout.write(`Model Gateway simulator listening on ${simulator.url} (OpenAI base URL ${simulator.url}/v1)\n`);
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
