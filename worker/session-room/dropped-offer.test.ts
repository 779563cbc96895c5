/** What a Stop dropped: each entry re-queued or restored, once. */
import { describe, expect, it } from "vitest";
import { entry, running, step } from "../testing/room-fixtures";
import { claimDropped, offerDropped, requeueAdmitted } from "./dropped-offer";
import { Fate } from "./room-state";

const offered = running({ droppedOffer: [entry("a"), entry("b")] });

describe("the dropped offer", () => {
  it("a Stop that dropped nothing leaves the offer as it is", () => {
    expect(step(offered, (out) => offerDropped(out, [])).state).toBe(offered);
    expect(step(offered, (out) => offerDropped(out, [entry("c")])).state.droppedOffer).toEqual([entry("c")]);
  });

  it.each<[string, Record<string, Fate>, string[], string[], string[]]>([
    ["a dropped entry is claimed (its re-queue id taken) and leaves the offer", { a: Fate.dropped }, ["a"], ["a"], ["settle", "dropped_offer"]],
    ["one already re-queued is not claimed, but leaves the offer", { a: Fate.dropped, "rq:a": Fate.queued }, ["a"], [], ["dropped_offer"]],
    ["one never dropped is not claimed", {}, ["zz"], [], []],
    ["a claim twice in one op counts once", { b: Fate.dropped }, ["b", "b"], ["b"], ["settle", "dropped_offer"]],
  ])("%s", (_name, settled, ids, claimed, kinds) => {
    const r = step(offered, (out) => claimDropped(out, ids), { settled });
    expect(r.result).toEqual(claimed);
    expect(r.kinds).toEqual(kinds);
    for (const id of claimed) expect(r.effects).toContainEqual({ t: "settle", id: `rq:${id}`, fate: Fate.taken, ack: { queued: false, taken: true } });
  });

  it("a re-queue admitted takes its entry out of the offer; any other send changes nothing", () => {
    expect(step(offered, (out) => requeueAdmitted(out, "rq:a")).state.droppedOffer).toEqual([entry("b")]);
    expect(step(offered, (out) => requeueAdmitted(out, "m9")).effects).toEqual([]);
  });
});
