/**
 * The shape of every error a client sees: a status, a message naming the field and
 * the rule, and optional metadata. The catalogue of them is http/errors.ts (`Errors.*`);
 * http/error-envelope.ts writes one as the spec's `{"error":{"code","message","metadata"}}`.
 */
export type ErrorMetadata = Record<string, unknown>;

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly metadata?: ErrorMetadata,
    /** The spec's optional top-level `service_metadata` of an error body. */
    readonly serviceMetadata?: unknown,
  ) {
    super(message);
  }

  withServiceMetadata(serviceMetadata: unknown): GatewayError {
    return new GatewayError(this.statusCode, this.message, this.metadata, serviceMetadata);
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}
