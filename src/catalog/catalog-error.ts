/** The catalog cannot be built as configured: the message says what to fix. */
export class CatalogError extends Error {
  override readonly name = 'CatalogError';
}
