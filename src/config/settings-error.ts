/** An environment variable holds a value the gateway cannot use: the message names it and the rule. */
export class SettingsError extends Error {}
