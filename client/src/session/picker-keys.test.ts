import { describe, expect, it } from "vitest";
import { pickerKey } from "./picker-keys";

const key = (k: string, o: { shiftKey?: boolean; isComposing?: boolean } = {}) => ({ key: k, shiftKey: false, isComposing: false, ...o });

describe("pickerKey: the pickers' one keyboard model", () => {
  it("arrows move, Enter and Tab choose, Escape closes, other keys are the textarea's", () => {
    expect(pickerKey(key("ArrowDown"), false)).toBe("next");
    expect(pickerKey(key("ArrowUp"), false)).toBe("previous");
    expect(pickerKey(key("Enter"), false)).toBe("choose");
    expect(pickerKey(key("Tab"), false)).toBe("choose");
    expect(pickerKey(key("Escape"), false)).toBe("close");
    expect(pickerKey(key("a"), false)).toBeNull();
    expect(pickerKey(key("Backspace"), false)).toBeNull();
  });

  it("Shift+Enter is a newline, and an IME's confirming Enter or Tab never chooses", () => {
    expect(pickerKey(key("Enter", { shiftKey: true }), false)).toBeNull();
    expect(pickerKey(key("Enter"), true)).toBeNull();
    expect(pickerKey(key("Enter", { isComposing: true }), false)).toBeNull();
    expect(pickerKey(key("Tab", { isComposing: true }), false)).toBeNull();
  });
});
