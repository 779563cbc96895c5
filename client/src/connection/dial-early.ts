/** The entry's side effect, before Solid and the app evaluate: a session page dials its join at once (early-socket.ts). */
import { dialEarly, sessionOfPath } from "./early-socket";

const sessionId = sessionOfPath(location.pathname);
if (sessionId) dialEarly(sessionId);
