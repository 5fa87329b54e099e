/** The config file cannot be used as written: the message names the file, line and key. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
