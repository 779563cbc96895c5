// `npm run deploy`: checks the auth setup, applies D1 migrations on the remote database, builds the
// client + Worker, deploys. `npm run deploy -- --check` only runs the checks.
//
// Worker vars can come from wrangler.jsonc or from the environment (passed as `wrangler deploy --var`):
//   AUTH_MODE=access   ACCESS_TEAM_DOMAIN, ACCESS_AUD
//   AUTH_MODE=builtin  BUILTIN_ALLOWED_EMAILS and/or BUILTIN_ALLOWED_DOMAINS, MAIL_FROM, MAIL_API_URL
//                      + secrets AUTH_SECRET and MAIL_API_KEY (`npx wrangler secret put NAME`)
//   ALLOWED_ORIGINS, MACHINE_BUDGET (optional)
//   Web Push: VAPID_SUBJECT (mailto: or https: contact) + secret VAPID_PRIVATE_KEY (`node scripts/vapid-keys.mjs`)
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const VAR_NAMES = [
  "AUTH_MODE",
  "ACCESS_TEAM_DOMAIN",
  "ACCESS_AUD",
  "BUILTIN_ALLOWED_EMAILS",
  "BUILTIN_ALLOWED_DOMAINS",
  "MAIL_FROM",
  "MAIL_API_URL",
  "ALLOWED_ORIGINS",
  "MACHINE_BUDGET",
  "VAPID_SUBJECT",
];

const checkOnly = process.argv.includes("--check");
const run = (cmd, args) => execFileSync(cmd, args, { stdio: "inherit" });

/** wrangler.jsonc → object (comments and trailing commas stripped; strings kept intact). */
function readJsonc(path) {
  const src = readFileSync(path, "utf8");
  let out = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j;
    } else if (c === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && src[i + 1] === "*") {
      i = src.indexOf("*/", i + 2) + 1;
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
}

const config = readJsonc("wrangler.jsonc");

/** The names of the deployed Worker's secrets, or null when wrangler cannot tell (first deploy, not logged in). */
function listSecrets() {
  try {
    const out = execFileSync("npx", ["wrangler", "secret", "list", "--format", "json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const parsed = JSON.parse(out);
    return Array.isArray(parsed) ? parsed.map((s) => s.name) : null;
  } catch {
    return null;
  }
}
const overrides = Object.fromEntries(VAR_NAMES.filter((k) => process.env[k]).map((k) => [k, process.env[k]]));
const vars = { ...(config.vars ?? {}), ...overrides };
const errors = [];
const warnings = [];

const db = (config.d1_databases ?? []).find((d) => d.binding === "DB");
if (!db || /^0{8}-/.test(db.database_id ?? ""))
  errors.push("wrangler.jsonc: set d1_databases[DB].database_id to your database (create it with `npx wrangler d1 create baton`).");

if (vars.LOCAL_STACK !== undefined)
  errors.push("LOCAL_STACK is set: it marks a server started by `npm start` (dev identity, dev signing key). Remove it from the vars.");

switch (vars.AUTH_MODE) {
  case "access":
    if (!vars.ACCESS_TEAM_DOMAIN) errors.push("AUTH_MODE=access needs ACCESS_TEAM_DOMAIN (e.g. myteam.cloudflareaccess.com).");
    if (!vars.ACCESS_AUD) errors.push("AUTH_MODE=access needs ACCESS_AUD (the Access application's Audience (AUD) tag).");
    break;
  case "builtin":
    if (!vars.BUILTIN_ALLOWED_EMAILS && !vars.BUILTIN_ALLOWED_DOMAINS)
      errors.push("AUTH_MODE=builtin needs BUILTIN_ALLOWED_EMAILS or BUILTIN_ALLOWED_DOMAINS (who may sign in first).");
    if (!vars.MAIL_FROM) errors.push("AUTH_MODE=builtin needs MAIL_FROM (the sender address for sign-in codes).");
    if (!vars.MAIL_API_URL && !(config.send_email ?? []).some((b) => b.name === "SEND_EMAIL"))
      errors.push("AUTH_MODE=builtin needs a mail channel: MAIL_API_URL (+ secret MAIL_API_KEY) or a send_email binding named SEND_EMAIL.");
    warnings.push("builtin: make sure the secrets exist: `npx wrangler secret put AUTH_SECRET` (≥ 16 random chars) and, with MAIL_API_URL, `npx wrangler secret put MAIL_API_KEY`.");
    break;
  case "dev":
  case undefined:
    errors.push(
      "AUTH_MODE is 'dev' (or unset). The dev identity only answers on localhost, so this deploy would refuse everyone. " +
        "Deploy with AUTH_MODE=access (Cloudflare Access) or AUTH_MODE=builtin — see README › Deploying for a team.",
    );
    break;
  default:
    errors.push(`AUTH_MODE=${vars.AUTH_MODE} is not one of access | builtin.`);
}

// Web Push needs the VAPID private key as a Worker secret (never a var: vars are visible in the dashboard and config).
const VAPID_HOWTO =
  "make one with `node scripts/vapid-keys.mjs --secret | npx wrangler secret put VAPID_PRIVATE_KEY` (or `npx @pushforge/builder vapid` and paste the JWK), " +
  "and set VAPID_SUBJECT to a contact (mailto:you@example.com) — see README › Push notifications.";
if (vars.VAPID_PRIVATE_KEY !== undefined) errors.push("VAPID_PRIVATE_KEY is a var: it must be a secret (`npx wrangler secret put VAPID_PRIVATE_KEY`); remove it from the vars.");
const secrets = listSecrets();
if (secrets === null) warnings.push(`could not list the Worker's secrets (not deployed yet, or not logged in): push needs the secret VAPID_PRIVATE_KEY; ${VAPID_HOWTO}`);
else if (!secrets.includes("VAPID_PRIVATE_KEY")) errors.push(`push notifications: the secret VAPID_PRIVATE_KEY is missing; ${VAPID_HOWTO}`);
if (!vars.VAPID_SUBJECT) errors.push(`push notifications: VAPID_SUBJECT is not set; ${VAPID_HOWTO}`);
else if (!/^(mailto:|https:\/\/)/.test(vars.VAPID_SUBJECT)) errors.push("VAPID_SUBJECT must start with mailto: or https:// (push services refuse other contacts).");

for (const w of warnings) console.warn(`! ${w}`);
if (errors.length) {
  for (const e of errors) console.error(`✗ ${e}`);
  process.exit(1);
}
console.log(`✓ auth: ${vars.AUTH_MODE}; D1 database ${db.database_name}; push contact ${vars.VAPID_SUBJECT}`);
if (checkOnly) process.exit(0);

const varArgs = Object.entries(overrides).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
run("npx", ["wrangler", "d1", "migrations", "apply", db.database_name, "--remote"]);
run("npx", ["vite", "build"]);
run("npx", ["wrangler", "deploy", "--config", `dist/${config.name}/wrangler.json`, ...varArgs]);
