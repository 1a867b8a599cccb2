import { RequestError, RpcCode } from '../errors';

/**
 * The calls of one remote in flight, bounded in all (`maxCalls`) and per caller (`maxCallsPerClient`, the caller
 * keyed as the HTTP endpoint keys clients): one caller holding hanging calls fills its own share, not everyone's.
 */
export class CallSlots {
  private total = 0;
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxPerClient: number,
    private readonly label: () => string,
  ) {}

  /** Takes a slot for `client` (undefined: counted in the total only); returns its release, which may be called more than once. */
  take(client: string | undefined): () => void {
    const held = client === undefined ? 0 : (this.perClient.get(client) ?? 0);
    if (client !== undefined && held >= this.maxPerClient) {
      throw new RequestError(
        RpcCode.InternalError,
        `Too many of your calls of the ${this.label()} are in flight (${this.maxPerClient}, maxCallsPerClient); try again when one has ended.`,
        { limit: 'maxCallsPerClient' },
      );
    }
    if (this.total >= this.max) {
      throw new RequestError(RpcCode.InternalError, `Too many calls of the ${this.label()} are in flight (${this.max}, maxCalls); try again shortly.`, { limit: 'maxCalls' });
    }
    this.total++;
    if (client !== undefined) this.perClient.set(client, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      if (client === undefined) return;
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    };
  }
}
