/** The WebSocket surface partysocket uses, for tests that play the network: open and drop are the test's to call. */
export class TestSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  readyState = 0;
  binaryType = "blob";
  bufferedAmount = 0;
  extensions = "";
  protocol = "";
  constructor(readonly url: string) {
    super();
  }
  /** The server accepted the connection. */
  accept(): void {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
  }
  /** The connection ended without a close frame (the network went away). */
  drop(): void {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code: 1006, reason: "", wasClean: false }));
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
  }
}
