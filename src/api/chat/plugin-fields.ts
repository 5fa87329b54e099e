import { type TProperties, Type } from 'typebox';

/** A plugin object: its literal `id`, the `enabled` switch every plugin has (default true), and its own fields. */
export const PluginObject = <const Id extends string, const P extends TProperties>(id: Id, fields: P) =>
  Type.Object({
    id: Type.Literal(id),
    enabled: Type.Optional(Type.Boolean()),
    ...fields,
  });
