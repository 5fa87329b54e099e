import type { Readable } from 'node:stream';
import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import { parse as parseContentType } from 'content-type';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type GatewayError, isGatewayError } from '../../protocol/gateway-error.js';
import { Errors } from '../errors.js';
import { closeLingering } from '../lingering-close.js';
import { PartHeaderMeter } from './part-header-meter.js';

/** The most a part's headers may be: Node's own limit of a request's headers. */
export const PART_HEADER_BYTES = 16 * 1024;

/** What a route's form may hold; past any of them the form is refused as soon as it is crossed. */
export interface FormLimits {
  /** The whole body. */
  bodyBytes: number;
  /** Each part's headers, from its boundary to the blank line. */
  headerBytes: number;
  parts: number;
  files: number;
  fields: number;
  /** Each file. */
  fileBytes: number;
  /** Each text field's value. */
  fieldBytes: number;
  fieldNameBytes: number;
}

/** The route's own wording of a limit's 413, where it has one (the declared length, when the body was refused before it was read). */
export type FormRefusals = Partial<Record<'body' | 'parts' | 'files' | 'fields' | 'file', (declared?: number) => GatewayError>>;

export interface FormFile {
  field: string;
  /** As sent: empty when the part gave none. */
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export interface Form<F = FormFile> {
  /** Each text field with every value sent, in order. */
  fields: Map<string, string[]>;
  files: F[];
}

/** A file part as it starts: its bytes are `stream`, within the form's limits as they arrive. */
export interface FilePartStream {
  field: string;
  /** As sent: empty when the part gave none. */
  filename: string;
  contentType: string;
  stream: Readable;
}

/**
 * Where a file part's bytes go. It reads `stream` to its end (the form is read on as it does, so a
 * slow receiver slows the client down rather than buffering), and rejects when the stream fails: the
 * form's refusal destroys it, so that a receiver never keeps a cut file.
 */
export interface FileReceiver<F> {
  receive(part: FilePartStream): Promise<F>;
  /** Lets go of a file received whole when the form is refused after it. */
  discard(file: F): Promise<void>;
}

export interface ReadFormOptions<F = FormFile> {
  limits: FormLimits;
  refusals?: FormRefusals;
  /** The refusal of a file sent in the field, or undefined when the form takes files there. */
  refuseFile: (field: string) => GatewayError | undefined;
  /** Where files go; into memory (FormFile) unless given. */
  receiver?: FileReceiver<F>;
}

/** Each file whole in memory: for forms whose files are small and sent on as they are. */
const inMemory: FileReceiver<FormFile> = {
  async receive({ field, filename, contentType, stream }) {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { field, filename, contentType, bytes: Buffer.concat(chunks) };
  },
  discard: async () => {},
};

/**
 * Routes of this scope take multipart/form-data, left unread for readForm
 * (Fastify would refuse the type with a 415): each route reads its own form
 * under its own limits.
 */
export function takeMultipart(app: FastifyInstance): void {
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
}

/** RFC 2046's boundary: 1 to 70 of its characters, the last not a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** Whether the request's Content-Type is multipart/form-data. */
export const isMultipart = (request: FastifyRequest): boolean =>
  parseContentType(request.headers['content-type'] ?? '').type === 'multipart/form-data';

/** Field names that would reach an object's prototype were a form turned into one. */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** The 400 a part's name earns, or undefined for a name the form can take. */
function refuseName(name: string | undefined, limit: number): GatewayError | undefined {
  if (!name) return Errors.invalidRequest('every part of the form must have a name (Content-Disposition: form-data; name="…")');
  if (PROTOTYPE_NAMES.has(name)) return Errors.invalidRequest(`a field name of the form is not allowed (${name})`);
  if (Buffer.byteLength(name) > limit) return Errors.invalidRequest(`a field name of the form is longer than ${limit} bytes`);
  return undefined;
}

/**
 * Reads a multipart form whole, each file into memory or to `receiver`, holding every limit
 * as the body streams in: a body declared longer than `bodyBytes` is refused
 * before a byte of it is read, and any other limit the moment it is crossed,
 * however the body is sent (chunked too). A form refused before its end is
 * not read on: the answer closes the connection (`Connection: close`),
 * lingering so that a client still writing reads it (lingering-close.ts).
 * Past a limit: 413 (the route's wording, from `refusals`, or
 * GW_ERR_UPLOAD_TOO_LARGE's own); a part without a name, a name the form
 * cannot take, a file where the route takes none, or a body that is not a
 * well-formed form: 400 naming it.
 */
export function readForm(request: FastifyRequest, reply: FastifyReply, options: ReadFormOptions): Promise<Form>;
export function readForm<F>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: ReadFormOptions<F> & { receiver: FileReceiver<F> },
): Promise<Form<F>>;
export async function readForm<F>(
  request: FastifyRequest,
  reply: FastifyReply,
  { limits, refusals = {}, refuseFile, receiver = inMemory as unknown as FileReceiver<F> }: ReadFormOptions<F>,
): Promise<Form<F>> {
  const raw = request.raw;
  const refuseUnread = (error: GatewayError): GatewayError => {
    if (!raw.complete) {
      void reply.header('connection', 'close');
      closeLingering(raw.socket);
    }
    return error;
  };
  const tooLarge = (limit: keyof FormRefusals, detail: string, declared?: number) =>
    refusals[limit]?.(declared) ?? Errors.uploadTooLarge(detail);

  const boundary = parseContentType(request.headers['content-type'] ?? '').parameters.boundary;
  if (boundary === undefined || !BOUNDARY.test(boundary))
    throw refuseUnread(Errors.invalidRequest('the Content-Type must give the form’s boundary: 1 to 70 characters (RFC 2046)'));
  const declared = Number(request.headers['content-length']);
  if (declared > limits.bodyBytes)
    throw refuseUnread(tooLarge('body', `the body's ${declared} bytes exceed the ${limits.bodyBytes}-byte limit of this form`, declared));

  return new Promise<Form<F>>((resolve, reject) => {
    const fields = new Map<string, string[]>();
    /** Each file part's receipt, in the form's order. */
    const receipts: Promise<F>[] = [];
    const open = new Set<BusboyFileStream>();
    const meter = new PartHeaderMeter(boundary, limits.headerBytes);
    const busboy = Busboy({
      // The boundary as parsed here, so that busboy and the meter see the same parts.
      headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` },
      limits: {
        parts: limits.parts,
        files: limits.files,
        fields: limits.fields,
        fileSize: limits.fileBytes,
        fieldSize: limits.fieldBytes,
        headerSize: limits.headerBytes,
      },
    });
    let received = 0;
    let settled = false;
    const discardAll = () => Promise.allSettled(receipts.map((receipt) => receipt.then((file) => receiver.discard(file))));

    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.bodyBytes) return fail(tooLarge('body', `the body exceeds the ${limits.bodyBytes}-byte limit of this form`));
      if (!meter.push(chunk)) return fail(Errors.uploadTooLarge(`the headers of a part exceed the ${limits.headerBytes}-byte limit`));
      if (!busboy.write(chunk)) raw.pause();
    };
    const onEnd = () => busboy.end();
    const onClose = () => {
      if (!raw.complete) fail(Errors.invalidRequest('the multipart body was cut off before its end'));
    };
    const detach = () => {
      settled = true;
      raw.off('data', onData).off('end', onEnd).off('close', onClose);
      busboy.removeAllListeners().on('error', () => {});
      busboy.destroy();
    };
    // Stops reading and lets go of what was read: the answer is the refusal alone.
    function fail(error: unknown) {
      if (settled) return;
      detach();
      raw.pause();
      const refusal = refuseUnread(isGatewayError(error) ? error : malformed(error));
      for (const stream of open) stream.destroy(refusal);
      fields.clear();
      // Answered once every file received is let go of: nothing of a refused form outlives its answer.
      void discardAll().then(() => reject(refusal));
    }

    busboy.on(
      'file',
      (name: string | undefined, file: BusboyFileStream, filename: string | undefined, _encoding: string, mimeType: string) => {
        file.on('error', fail);
        const refusal = refuseName(name, limits.fieldNameBytes) ?? refuseFile(name!);
        if (refusal) return fail(refusal);
        open.add(file);
        file.once('close', () => open.delete(file));
        file.once('limit', () => fail(tooLarge('file', `a file exceeds the ${limits.fileBytes}-byte limit`)));
        const receipt = receiver.receive({ field: name!, filename: filename ?? '', contentType: mimeType, stream: file });
        receipts.push(receipt);
        // A receiver's own failure (its storage) refuses the form as it is; a cut stream's is the refusal already sent.
        receipt.catch((error: unknown) => fail(isGatewayError(error) ? error : Errors.internal()));
      },
    );
    busboy.on('field', (name: string | undefined, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      const refusal = refuseName(name, limits.fieldNameBytes);
      if (refusal) return fail(refusal);
      if (valueTruncated) return fail(Errors.uploadTooLarge(`the field ${name} exceeds the ${limits.fieldBytes}-byte limit of a field`));
      fields.set(name!, [...(fields.get(name!) ?? []), value]);
    });
    busboy.on('partsLimit', () => fail(tooLarge('parts', `the form has more than ${limits.parts} parts`)));
    busboy.on('filesLimit', () => fail(tooLarge('files', `the form has more than ${limits.files} files`)));
    busboy.on('fieldsLimit', () => fail(tooLarge('fields', `the form has more than ${limits.fields} fields`)));
    busboy.on('error', fail);
    busboy.on('drain', () => raw.resume());
    busboy.on('finish', () => {
      if (settled) return;
      detach();
      // The last file's receiver may still be writing what it read.
      Promise.all(receipts).then(
        (files) => resolve({ fields, files }),
        (error: unknown) => void discardAll().then(() => reject(isGatewayError(error) ? error : Errors.internal())),
      );
    });
    raw.on('data', onData).once('end', onEnd).once('close', onClose);
  });
}

/** A parser's failure (a cut or malformed form) as the client's 400. */
const malformed = (error: unknown): GatewayError =>
  Errors.invalidRequest(`the multipart body is malformed: ${error instanceof Error ? error.message : String(error)}`);
