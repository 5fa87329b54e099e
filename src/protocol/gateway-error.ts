/**
 * The shape of every error a client sees: a stable code name, a status, a message
 * naming the field and the rule, and optional metadata. The catalogue of them is
 * http/errors.ts (`Errors.*`, docs/errors.md); http/error-envelope.ts writes one as
 * the spec's `{"error":{"code","message","metadata"}}` with the name in X-Error-Code.
 */
export type ErrorMetadata = Record<string, unknown>;

/** A catalogue entry's stable name, e.g. GW_ERR_SPEND_LIMIT_REACHED. */
export type ErrorCode = `GW_ERR_${string}`;

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    /** The catalogue entry this error is (as Node's and Fastify's `code`): what the logs and the ledger record. */
    readonly code: ErrorCode,
    readonly statusCode: number,
    message: string,
    readonly metadata?: ErrorMetadata,
    /** The spec's optional top-level `service_metadata` of an error body. */
    readonly serviceMetadata?: unknown,
  ) {
    super(message);
  }

  withServiceMetadata(serviceMetadata: unknown): GatewayError {
    return new GatewayError(this.code, this.statusCode, this.message, this.metadata, serviceMetadata);
  }

  /** The same error told in other words or with other metadata (spec 7.3's intern terms): its code and status stay. */
  reworded(message: string, metadata: ErrorMetadata | undefined): GatewayError {
    return new GatewayError(this.code, this.statusCode, message, metadata, this.serviceMetadata);
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}
