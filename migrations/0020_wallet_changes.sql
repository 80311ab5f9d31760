ALTER TABLE "google_wallet_objects" ADD COLUMN "content_hash" text;--> statement-breakpoint
-- hand-written: wallet changes
-- One place decides "what a wallet carries may have changed", for both wallets (ADR 042, ADR
-- 043): 0019's trigger function now also queues a `google-wallet.patch` job when a Google Wallet
-- object exists in the scope, besides Apple's `wallet.refresh` when a pass does. Two job kinds,
-- so each wallet retries on its own: an APNs outage does not send Google the same objects again,
-- nor a Google outage push the devices again. Same scope, same payload, one job of each kind per
-- scope and transaction (the idempotency key carries the transaction id). The triggers of 0019
-- stay as they are: they call this function by name.
CREATE OR REPLACE FUNCTION "brandcard_wallet_pass_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "r" record;
  "org" uuid;
  "card" uuid;
  "owner" uuid;
  "payload" jsonb;
  "scope" text;
BEGIN
  IF TG_OP = 'DELETE' THEN "r" := OLD; ELSE "r" := NEW; END IF;
  IF TG_TABLE_NAME = 'organizations' THEN
    "org" := "r"."id";
  ELSE
    "org" := "r"."organization_id";
  END IF;
  IF TG_TABLE_NAME = 'digital_cards' THEN
    "card" := "r"."id";
  ELSIF TG_TABLE_NAME = 'card_slugs' THEN
    "card" := "r"."card_id";
  ELSIF TG_TABLE_NAME = 'users' THEN
    "owner" := "r"."id";
  ELSIF TG_TABLE_NAME = 'user_settings' THEN
    "owner" := "r"."user_id";
  END IF;
  "payload" := jsonb_strip_nulls(jsonb_build_object('organizationId', "org", 'cardId', "card", 'ownerId', "owner"));
  "scope" := "org" || ':' || coalesce("card"::text, "owner"::text, '*') || ':' || txid_current();
  IF EXISTS (
    SELECT 1 FROM "wallet_passes" p JOIN "digital_cards" c
      ON c."organization_id" = p."organization_id" AND c."id" = p."card_id"
    WHERE p."organization_id" = "org"
      AND ("card" IS NULL OR p."card_id" = "card")
      AND ("owner" IS NULL OR c."user_id" = "owner")
  ) THEN
    INSERT INTO "jobs" ("name", "payload", "organization_id", "idempotency_key")
    VALUES ('wallet.refresh', "payload", "org", 'wallet.refresh:' || "scope")
    ON CONFLICT ("idempotency_key") DO NOTHING;
  END IF;
  IF EXISTS (
    SELECT 1 FROM "google_wallet_objects" g JOIN "digital_cards" c
      ON c."organization_id" = g."organization_id" AND c."id" = g."card_id"
    WHERE g."organization_id" = "org"
      AND ("card" IS NULL OR g."card_id" = "card")
      AND ("owner" IS NULL OR c."user_id" = "owner")
  ) THEN
    INSERT INTO "jobs" ("name", "payload", "organization_id", "idempotency_key")
    VALUES ('google-wallet.patch', "payload", "org", 'google-wallet.patch:' || "scope")
    ON CONFLICT ("idempotency_key") DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
