import { describe, expect, it } from "vitest";
import { NO_REPO_TTL_MS, REPO_TTL_MS, RepoCache } from "./repo-cache";

const REPO = { repo: { root: "/r/app", name: "app", branch: "main", branches: ["main"] }, reason: null };
const NONE = { repo: null, reason: "not inside a git repository" };

describe("RepoCache: the daemon's git.repo answers remembered", () => {
  it("keeps a repository longer than 'not a repository', per machine and directory", () => {
    const c = new RepoCache();
    c.set("m1", "/r/app", REPO, 0);
    c.set("m1", "/tmp/x", NONE, 0);
    expect(c.get("m1", "/r/app", REPO_TTL_MS - 1)).toEqual(REPO);
    expect(c.get("m2", "/r/app", 1)).toBeUndefined();
    expect(c.get("m1", "/tmp/x", NO_REPO_TTL_MS - 1)).toEqual(NONE);
    expect(c.get("m1", "/tmp/x", NO_REPO_TTL_MS)).toBeUndefined();
    expect(c.get("m1", "/r/app", REPO_TTL_MS)).toBeUndefined();
    expect(NO_REPO_TTL_MS).toBeLessThan(REPO_TTL_MS);
  });

  it("is bounded: the oldest written goes first", () => {
    const c = new RepoCache(2);
    c.set("m", "/a", REPO, 0);
    c.set("m", "/b", REPO, 0);
    c.set("m", "/a", REPO, 1); // written again: now the newest
    c.set("m", "/c", REPO, 2);
    expect(c.get("m", "/b", 3)).toBeUndefined();
    expect(c.get("m", "/a", 3)).toEqual(REPO);
    expect(c.get("m", "/c", 3)).toEqual(REPO);
  });
});
