/** Which module answers an ask (shared/tunnel-ask.ts): by its kind, else the agent asks (which answer unknown kinds). */
import type { AskKind } from "../../../shared/tunnel-ask";
import type { AskAnswer } from "./tunnel-client";

type AskHandler = (request: unknown) => Promise<AskAnswer>;

export function routeAsks(o: { byKind: Partial<Record<AskKind, AskHandler>>; otherwise: AskHandler }): AskHandler {
  return (request) => {
    const kind = typeof request === "object" && request !== null && "kind" in request ? request.kind : undefined;
    const handler = Object.entries(o.byKind).find(([k]) => k === kind)?.[1];
    return (handler ?? o.otherwise)(request);
  };
}
