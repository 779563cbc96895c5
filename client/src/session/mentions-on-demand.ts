/**
 * The "@" mentions' code (views/Mentions.tsx: the file picker, the fuzzy filter, the chips) in a chunk of its own,
 * off the session page's first paint (test/build/initial-js.test.ts): the Sender warms it after painting and
 * loads it at the first "@"; a row or draft with a resource link loads it to draw its chips.
 */
import { onDemand } from "../lib/on-demand";

export const mentions = onDemand(() => import("../views/Mentions"));
