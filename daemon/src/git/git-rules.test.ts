import { describe, expect, it } from "vitest";
import { branchRefusal, firstFree, folderFor, keepReason, readStatus, readWorktreeList } from "./git-rules";

describe("git rules", () => {
  it("suffixes a taken name and gives up past the last suffix", () => {
    const taken = new Set(["a", "a-2"]);
    expect(firstFree("b", (n) => taken.has(n))).toBe("b");
    expect(firstFree("a", (n) => taken.has(n))).toBe("a-3");
    expect(firstFree("a", () => true)).toBeNull();
  });

  it("makes one folder segment of a branch", () => {
    expect(folderFor("baton/fix-login")).toBe("baton-fix-login");
    expect(folderFor("../x")).toBe("x");
    expect(folderFor("/")).toBe("worktree");
  });

  it("refuses names git would read as options or that hold spaces", () => {
    expect(branchRefusal("ok/name")).toBeNull();
    expect(branchRefusal("")).toMatch(/empty/);
    expect(branchRefusal("--force")).toMatch(/dash/);
    expect(branchRefusal("a b")).toMatch(/spaces/);
  });

  it("counts porcelain status entries, a rename once", () => {
    expect(readStatus("")).toEqual({ files: 0, untracked: 0 });
    expect(readStatus(" M a.ts\0?? b.ts\0R  new.ts\0old.ts\0")).toEqual({ files: 3, untracked: 1 });
  });

  it("reads the worktree list", () => {
    const text = "worktree /r\nHEAD abc\nbranch refs/heads/main\n\nworktree /w/x\nHEAD def\nbranch refs/heads/baton/x\nprunable gitdir file points to non-existent location\n\nworktree /w/d\nHEAD 123\ndetached\n";
    expect(readWorktreeList(text)).toEqual([
      { path: "/r", branch: "main", prunable: false },
      { path: "/w/x", branch: "baton/x", prunable: true },
      { path: "/w/d", branch: null, prunable: false },
    ]);
  });

  it("says why a worktree is kept", () => {
    expect(keepReason(0, 0)).toBeNull();
    expect(keepReason(1, 0)).toBe("the worktree holds 1 uncommitted file");
    expect(keepReason(2, 3)).toBe("the worktree holds 2 uncommitted files and 3 commits on no remote");
  });
});
