import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const apiError = (c: Context, status: ContentfulStatusCode, code: string, message: string) =>
  c.json({ error: { code, message } }, status);
