-- Sign-in codes are bound to the browser that asked (hash of its login cookie) and counted per client,
-- so one client cannot lock an address out (worker/auth/login-codes.ts).
ALTER TABLE login_codes ADD COLUMN client TEXT NOT NULL DEFAULT '';
ALTER TABLE login_codes ADD COLUMN binding TEXT NOT NULL DEFAULT '';
CREATE INDEX login_codes_client ON login_codes(client, created_at);
