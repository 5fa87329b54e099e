/** Provider kinds that an adapter speaks; a config naming any other kind is refused at start. */
export const PROVIDER_KINDS: readonly string[] = [];
