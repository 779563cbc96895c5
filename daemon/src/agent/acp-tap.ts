/**
 * Sees every JSON-RPC message the agent sends, in wire order, before the SDK does.
 * The daemon relays `session/update` from here (raw, so kinds the SDK schema does not know survive)
 * and mints permission requests here (so they keep their place among the updates).
 */
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { isRecord } from "../../../shared/is-record";

export { isRecord };

/** `pass` hands the message on to the SDK; `drop` keeps it from the SDK (already fully handled). */
export type TapVerdict = "pass" | "drop";

export function tapMessages(onMessage: (m: AnyMessage) => TapVerdict): TransformStream<AnyMessage, AnyMessage> {
  return new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      let verdict: TapVerdict = "pass";
      try {
        verdict = onMessage(message);
      } catch {
        verdict = "pass"; // a bug in the tap must not wedge the connection
      }
      if (verdict === "pass") controller.enqueue(message);
    },
  });
}

/** An ACP stream over a child's stdio with the tap in front of the SDK's reader. */
export function tappedStdioStream(
  stdin: NodeJS.WritableStream,
  stdout: NodeJS.ReadableStream,
  onMessage: (m: AnyMessage) => TapVerdict,
): acp.Stream {
  const base = acp.ndJsonStream(
    Writable.toWeb(stdin as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(stdout as Readable) as ReadableStream<Uint8Array>,
  );
  return { writable: base.writable, readable: base.readable.pipeThrough(tapMessages(onMessage)) };
}

/** Notification (has method, no id) vs request (method and id). */
export function messageKind(m: AnyMessage): "request" | "notification" | "response" {
  if ("method" in m && typeof m.method === "string") return "id" in m ? "request" : "notification";
  return "response";
}
