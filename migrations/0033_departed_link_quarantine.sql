-- A departed person's links stay with the agency's forwarding for a quarantine (issue 39 point 3,
-- ADR 058): each kept address holds until `held_until`. Addresses kept before this migration hold
-- for the default 90 days from their departure.
ALTER TABLE "departed_addresses" ADD COLUMN "held_until" timestamp with time zone;--> statement-breakpoint
SELECT set_config('app.platform_scope', 'on', true);--> statement-breakpoint
UPDATE "departed_addresses" SET "held_until" = "departed_at" + interval '90 days';--> statement-breakpoint
SELECT set_config('app.platform_scope', '', true);--> statement-breakpoint
ALTER TABLE "departed_addresses" ALTER COLUMN "held_until" SET NOT NULL;--> statement-breakpoint
-- The name-link trigger of migration 0011, with one more reason to give an account no link: a
-- departed account's name link still in quarantine is held, as if another account held it.
CREATE OR REPLACE FUNCTION "users_claim_link_slug"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "wanted" text;
BEGIN
  IF btrim(NEW."first_name") = '' OR btrim(NEW."last_name") = '' THEN
    NEW."link_slug" := NULL;
    RETURN NEW;
  END IF;
  "wanted" := lower(replace(btrim(NEW."first_name") || '-' || btrim(NEW."last_name"), ' ', '-'));
  IF TG_OP = 'UPDATE' AND OLD."link_slug" IS NOT DISTINCT FROM "wanted"
    AND OLD."organization_id" = NEW."organization_id" THEN
    NEW."link_slug" := "wanted";
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(NEW."organization_id"::text || '/' || "wanted", 0));
  IF EXISTS (
    SELECT 1 FROM "users"
    WHERE "organization_id" = NEW."organization_id" AND "link_slug" = "wanted" AND "id" <> NEW."id"
  ) OR EXISTS (
    SELECT 1 FROM "departed_addresses"
    WHERE "organization_id" = NEW."organization_id" AND "kind" = 'name' AND "address" = "wanted"
      AND "held_until" > now()
  ) THEN
    NEW."link_slug" := NULL;
  ELSE
    NEW."link_slug" := "wanted";
  END IF;
  RETURN NEW;
END
$$;
