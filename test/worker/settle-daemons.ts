/** Each workerd test file ends with no tunnel open and no Machine → room call in flight (harness.ts, settleDaemons). */
import { afterAll } from "vitest";
import { settleDaemons } from "./harness";

afterAll(settleDaemons, 60_000);
