import { Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.js';

const FilterRules = Nullable(
  Type.Object({
    enabled: Type.Optional(Type.Boolean()),
    groups: Type.Array(
      Type.Object({
        logic: Type.Optional(Type.String()),
        rules: Type.Array(
          Type.Object({
            field: Type.String(),
            operator: Type.String(),
            value: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Number()])),
          }),
          { maxItems: 50 },
        ),
      }),
      { maxItems: 20 },
    ),
  }),
);

/** What a create and an update share; `type` and `sampling_rate` are checked in code, for messages that name the rule. */
const Settings = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  config: Type.Record(Type.String(), Type.Unknown()),
  enabled: Type.Boolean(),
  api_key_hashes: Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000 })),
  sampling_rate: Type.Number(),
  privacy_mode: Type.Boolean(),
  filter_rules: FilterRules,
  broadcast_generation_cost: Type.Boolean(),
  broadcast_generation_identity: Type.Boolean(),
  broadcast_generation_request_context: Type.Boolean(),
};

/** The reference's CreateObservabilityDestinationRequest. */
export const CreateDestinationBody = Type.Object({
  type: Type.String(),
  name: Settings.name,
  config: Settings.config,
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  enabled: Type.Optional(Settings.enabled),
  api_key_hashes: Type.Optional(Settings.api_key_hashes),
  sampling_rate: Type.Optional(Settings.sampling_rate),
  privacy_mode: Type.Optional(Settings.privacy_mode),
  filter_rules: Type.Optional(Settings.filter_rules),
  broadcast_generation_cost: Type.Optional(Settings.broadcast_generation_cost),
  broadcast_generation_identity: Type.Optional(Settings.broadcast_generation_identity),
  broadcast_generation_request_context: Type.Optional(Settings.broadcast_generation_request_context),
});

/** The reference's UpdateObservabilityDestinationRequest: what is given changes. */
export const UpdateDestinationBody = Type.Object({
  name: Type.Optional(Settings.name),
  config: Type.Optional(Settings.config),
  enabled: Type.Optional(Settings.enabled),
  api_key_hashes: Type.Optional(Settings.api_key_hashes),
  sampling_rate: Type.Optional(Settings.sampling_rate),
  privacy_mode: Type.Optional(Settings.privacy_mode),
  filter_rules: Type.Optional(Settings.filter_rules),
  broadcast_generation_cost: Type.Optional(Settings.broadcast_generation_cost),
  broadcast_generation_identity: Type.Optional(Settings.broadcast_generation_identity),
  broadcast_generation_request_context: Type.Optional(Settings.broadcast_generation_request_context),
});

export const DestinationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const ListDestinationsQuery = Type.Object({ workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) });
