/**
 * Delivers sign-in codes. Channels, first configured wins:
 * 1. `SEND_EMAIL` — a Cloudflare Email Routing `send_email` binding (+ MAIL_FROM, a verified sender).
 * 2. `MAIL_API_URL` + `MAIL_API_KEY` secret (+ MAIL_FROM) — an HTTP mail API taking
 *    `POST {from, to: [..], subject, text}` with `Authorization: Bearer` (Resend's shape; most providers offer it).
 * 3. Local only (the request came to localhost): the code is printed to the dev server's console.
 * Otherwise delivery is not configured and sign-in answers 503 — never a silent success.
 */
import type { Env } from "../env";

export type MailResult = "sent" | "logged" | "not_configured" | "failed";

export type LoginMail = { to: string; code: string; site: string; ttlMinutes: number };

export function loginMailText(m: LoginMail): { subject: string; text: string } {
  return {
    subject: `Your Baton sign-in code: ${m.code}`,
    text: `Your code to sign in to Baton at ${m.site} is\n\n    ${m.code}\n\nIt expires in ${m.ttlMinutes} minutes. If you did not ask for it, ignore this email.\n`,
  };
}

export async function sendLoginMail(env: Env, mail: LoginMail, local: boolean): Promise<MailResult> {
  const { subject, text } = loginMailText(mail);
  if (env.SEND_EMAIL && env.MAIL_FROM) {
    try {
      await env.SEND_EMAIL.send({ from: env.MAIL_FROM, to: mail.to, subject, text });
      return "sent";
    } catch (err) {
      console.error("sign-in mail via send_email failed:", (err as Error).message);
      return "failed";
    }
  }
  if (env.MAIL_API_URL && env.MAIL_API_KEY && env.MAIL_FROM) {
    try {
      const res = await fetch(env.MAIL_API_URL, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${env.MAIL_API_KEY}` },
        body: JSON.stringify({ from: env.MAIL_FROM, to: [mail.to], subject, text }),
      });
      if (res.ok) return "sent";
      console.error(`sign-in mail API answered ${res.status}`);
      return "failed";
    } catch (err) {
      console.error("sign-in mail API unreachable:", (err as Error).message);
      return "failed";
    }
  }
  if (local) {
    console.log(`[baton] local sign-in code for ${mail.to}: ${mail.code} (no mail channel configured; shown only on localhost)`);
    return "logged";
  }
  return "not_configured";
}
