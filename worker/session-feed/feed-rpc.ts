/** What the Worker, the rooms and the Machine call on a user's SessionFeed (its DO RPC surface). */
export interface FeedRpc extends Rpc.DurableObjectBranded {
  /** The feed socket upgrade (the Worker checked identity and Origin; the DO is the caller's own). */
  fetch(request: Request): Promise<Response>;
  /** Sends each frame (already serialised) to every open socket of the user; returns how many sockets. */
  deliver(frames: string[]): Promise<number>;
}
