import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../../worker/env";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** worker-access project: the private JWK matching the JWKS served to the Worker. */
      TEST_ACCESS_PRIVATE_JWK?: string;
    }
    // GlobalProps (mainModule, durableNamespaces) come from worker/worker-configuration.d.ts (wrangler types).
  }
}
