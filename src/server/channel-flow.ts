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
  /** Calls `cb` once, when the channel is no longer congested. */
  onDrain(cb: () => void): void;
}
