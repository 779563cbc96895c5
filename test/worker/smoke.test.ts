import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";
it("health", async () => {
  const r = await exports.default.fetch("http://x/api/health");
  expect(await r.json()).toEqual({ ok: true });
});
