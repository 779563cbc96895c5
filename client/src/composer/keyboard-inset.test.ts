import { describe, expect, it } from "vitest";
import { keyboardInset } from "./keyboard-inset";

describe("the part of the page under the on-screen keyboard", () => {
  it("iOS: the visual viewport shrinks, the layout does not", () => {
    expect(keyboardInset(844, { height: 508, offsetTop: 0 })).toBe(336);
    // Safari scrolled the page up to show the field: less of the layout is covered.
    expect(keyboardInset(844, { height: 508, offsetTop: 100 })).toBe(236);
  });
  it("no keyboard: a toolbar moving or zoom rounding is not one", () => {
    expect(keyboardInset(844, { height: 844, offsetTop: 0 })).toBe(0);
    expect(keyboardInset(844, { height: 790, offsetTop: 0 })).toBe(0);
    expect(keyboardInset(844, null)).toBe(0);
    // Android with resizes-content: the layout shrank with it.
    expect(keyboardInset(508, { height: 508, offsetTop: 0 })).toBe(0);
  });
});
