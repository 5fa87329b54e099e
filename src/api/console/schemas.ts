import { Type } from 'typebox';

/** POST /console/session: the management key to sign in with; it is used once and never stored. */
export const SignInBody = Type.Object({ key: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });
