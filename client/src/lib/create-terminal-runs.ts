/**
 * A terminal's output as styled runs: plain (terminal-plain.ts) until the colour parser (terminal-text.ts,
 * with anser) has loaded after the first paint, then coloured.
 */
import { type Accessor, createMemo } from "solid-js";
import { onDemand } from "./on-demand";
import { plainRuns, type TermRun } from "./terminal-plain";

const colours = onDemand(() => import("./terminal-text"));
/** Loads the colour parser now (tests; the app warms it when a terminal shows). */
export const loadTerminalColours = (): Promise<unknown> => colours.load();

export function createTerminalRuns(raw: Accessor<string>): Accessor<TermRun[]> {
  colours.warm();
  return createMemo(() => {
    const m = colours.current();
    return m ? m.terminalRuns(raw()) : plainRuns(raw());
  });
}
