import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../../worker/env";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
    }
    interface GlobalProps {
      mainModule: typeof import("../../worker/index");
      durableNamespaces: "SessionRoom" | "Machine";
    }
  }
}
