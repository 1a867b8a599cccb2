import type { BodyTicket, HttpLimits } from './http-limits';

/**
 * Where a request's body comes from when it has not been read yet: the Node adapter hands its `IncomingMessage`
 * over as one (`start` attaches, and the returned function detaches and discards the rest); without one, the
 * web `Request`'s own stream is read.
 */
export interface BodySource {
  /** The length the client declared (Content-Length), when it did. */
  readonly declared?: number;
  start(sink: BodySink): () => void;
}

export interface BodySink {
  /** One chunk; false asks the source to stop. */
  data(chunk: Uint8Array): boolean;
  end(): void;
  error(error: unknown): void;
}

/** Why a body was not accepted, as the endpoint answers it. */
export interface BodyRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

const EMPTY = new Uint8Array(0);

/**
 * Receives a body within the request time and the size limit, counting its bytes on `ticket` as they arrive (so
 * bodies in flight are bounded in all and per client before they are whole); resolves with its bytes, or why not.
 */
export function receiveBody(source: BodySource, limits: HttpLimits, ticket: BodyTicket): Promise<Uint8Array | BodyRefusal> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let received = 0;
    let done = false;
    const finish = (outcome: Uint8Array | BodyRefusal) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ status: 408, code: -32000, message: `Request Timeout: the body did not arrive within ${limits.requestTimeoutMs} ms.` }),
      limits.requestTimeoutMs,
    );
    timer.unref?.();
    const stop = source.start({
      data: (chunk) => {
        if (done) return false;
        received += chunk.byteLength;
        if (received > limits.maxRequestBodySize) {
          finish({ status: 413, code: -32000, message: `Payload Too Large: the body is over ${limits.maxRequestBodySize} bytes.` });
          return false;
        }
        if (!ticket.add(chunk.byteLength)) {
          finish({ status: 503, code: -32000, message: 'Server busy: too many request bodies are being received. Retry shortly.' });
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      end: () => finish(chunks.length === 1 ? chunks[0] : chunks.length === 0 ? EMPTY : concat(chunks, received)),
      error: () => finish({ status: 400, code: -32700, message: 'Parse error: the request body could not be read.' }),
    });
  });
}

/** The source of a web `Request`'s own body stream. */
export function webBody(request: Request): BodySource | undefined {
  const stream = request.body;
  if (!stream) return undefined;
  const length = Number(request.headers.get('content-length') ?? NaN);
  return {
    ...(Number.isFinite(length) ? { declared: length } : {}),
    start(sink) {
      const reader = stream.getReader();
      let stopped = false;
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (stopped) return;
            if (done) return sink.end();
            if (!sink.data(value)) return;
          }
        } catch (error) {
          if (!stopped) sink.error(error);
        }
      })();
      return () => {
        stopped = true;
        void reader.cancel().catch(() => undefined);
      };
    },
  };
}

/**
 * The JSON of a whole body, parsed once, or why it is refused: not JSON (-32700), or shaped to cost far more than
 * its bytes (nested deeper than `maxJsonDepth`, more than `maxJsonContainers` objects and arrays, a batch of
 * more than `maxBatchSize` messages: -32600). The shape is read from the bytes before parsing, so a refused body
 * never becomes objects. Undefined for an empty body (the transport answers it).
 */
export function parseBody(bytes: Uint8Array, limits: HttpLimits): { readonly json: unknown } | BodyRefusal | undefined {
  if (bytes.byteLength === 0) return undefined;
  const shape = jsonShape(bytes, limits.maxJsonDepth, limits.maxJsonContainers);
  const invalid = (message: string): BodyRefusal => ({ status: 400, code: -32600, message: `Invalid Request: ${message}` });
  if (shape.depth > limits.maxJsonDepth) return invalid(`the body nests objects and arrays deeper than ${limits.maxJsonDepth} levels.`);
  if (shape.containers > limits.maxJsonContainers) return invalid(`the body holds more than ${limits.maxJsonContainers} objects and arrays.`);
  if (shape.batch > limits.maxBatchSize) return invalid(`a batch may hold at most ${limits.maxBatchSize} messages.`);
  try {
    return { json: JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as unknown };
  } catch {
    return { status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON.' };
  }
}

/**
 * The same bounds for a body a framework parsed before the endpoint (Express's `express.json()`, a Nest body
 * parser): its objects are walked, without recursion, stopping at the first bound crossed; their size is
 * estimated from the JSON text they came from (strings and keys, numbers, punctuation) against
 * `maxRequestBodySize`. Undefined when it holds.
 */
export function checkParsedBody(json: unknown, limits: HttpLimits): BodyRefusal | undefined {
  const invalid = (message: string): BodyRefusal => ({ status: 400, code: -32600, message: `Invalid Request: ${message}` });
  if (Array.isArray(json) && json.length > limits.maxBatchSize) return invalid(`a batch may hold at most ${limits.maxBatchSize} messages.`);
  const stack: { value: unknown; depth: number }[] = [{ value: json, depth: 1 }];
  let containers = 0;
  let bytes = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value === 'string') bytes += value.length + 2;
    else if (typeof value !== 'object' || value === null) bytes += 8;
    else {
      if (depth > limits.maxJsonDepth) return invalid(`the body nests objects and arrays deeper than ${limits.maxJsonDepth} levels.`);
      if (++containers > limits.maxJsonContainers) return invalid(`the body holds more than ${limits.maxJsonContainers} objects and arrays.`);
      bytes += 2;
      if (Array.isArray(value)) {
        for (const item of value) stack.push({ value: item, depth: depth + 1 });
        bytes += value.length;
      } else {
        for (const key of Object.keys(value)) {
          bytes += key.length + 4;
          stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
        }
      }
    }
    if (bytes > limits.maxRequestBodySize) return { status: 413, code: -32000, message: `Payload Too Large: the body is over ${limits.maxRequestBodySize} bytes.` };
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * How deep the objects and arrays of a JSON text nest, how many there are, and how many elements a top-level
 * array has: one pass over the bytes, outside strings; it stops as soon as a bound is crossed. Not a validator:
 * JSON.parse refuses what is not JSON.
 */
function jsonShape(bytes: Uint8Array, maxDepth: number, maxContainers: number): { depth: number; containers: number; batch: number } {
  let depth = 0;
  let deepest = 0;
  let containers = 0;
  let commas = 0;
  let topArray = false;
  let inString = false;
  let started = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (!started) topArray = byte === OPEN_BRACKET;
      depth++;
      containers++;
      if (depth > deepest) deepest = depth;
      if (deepest > maxDepth || containers > maxContainers) break;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
    else if (byte === COMMA && depth === 1 && topArray) commas++;
    if (byte > 0x20) started = true;
  }
  return { depth: deepest, containers, batch: topArray ? commas + 1 : 1 };
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
