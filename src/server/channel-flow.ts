/**
 * The backpressure of a notify channel (an SSE stream, stdout). A transport whose channel can
 * fill up hands one to the engine (`PeerOptions.flow` for the peer's own channel,
 * `HandleExtra.flow` for a request's); a listen stream then holds its frames, coalesced, while
 * the channel is congested, rather than write them into an unbounded buffer.
 */
export interface ChannelFlow {
  /** True while the client is not keeping up: what is written now is only buffered. */
  readonly congested: boolean;
  /** Bytes written to the channel and not yet taken by the client. */
  readonly bufferedBytes: number;
  /**
   * Calls `cb` once, on a later turn of the event loop, when the channel is no longer congested
   * (soon, when it is not): never synchronously, so that a stream that drains in rounds lets
   * other requests in between.
   */
  onDrain(cb: () => void): void;
}
