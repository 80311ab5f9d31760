-- Name links no longer match cards' name fields (ADR 027): the index that served that goes.
DROP INDEX "digital_cards_org_names_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "link_slug" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_org_link_slug_key" ON "users" USING btree ("organization_id","link_slug");--> statement-breakpoint
-- Name links (ADR 027): `/card/{first}-{last}` belongs to one account, the first of its
-- organization to carry that name, and no card's title or name fields take part. The accounts
-- named so far: the oldest of each name holds its link (the owner reads every tenant's users,
-- row-level security being forced for a non-superuser owner too, then hands the setting back).
SELECT set_config('app.platform_scope', 'on', true);--> statement-breakpoint
UPDATE "users" u SET "link_slug" = c."slug"
FROM (
  SELECT DISTINCT ON ("organization_id", "slug") "id", "slug"
  FROM (
    SELECT "id", "organization_id", "created_at",
      lower(replace(btrim("first_name") || '-' || btrim("last_name"), ' ', '-')) AS "slug"
    FROM "users"
    WHERE btrim("first_name") <> '' AND btrim("last_name") <> ''
  ) n
  ORDER BY "organization_id", "slug", "created_at", "id"
) c
WHERE u."id" = c."id";--> statement-breakpoint
SELECT set_config('app.platform_scope', '', true);--> statement-breakpoint
-- From now on every write of an account's name claims its link the same way, whichever path
-- wrote it (sign-up, invitation, the admin screens, the seed): the name's link if no other
-- account of the organization holds it, else none. A rename gives the old link up. The app
-- never writes link_slug itself: a write that tries is recomputed here. Two accounts taking one
-- name at once queue on an advisory lock, so the second sees the first's claim once it commits
-- (the unique index stays the last word). Runs as the caller, under its row-level security.
CREATE FUNCTION "users_claim_link_slug"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  ) THEN
    NEW."link_slug" := NULL;
  ELSE
    NEW."link_slug" := "wanted";
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_claim_link_slug" BEFORE INSERT OR UPDATE OF "organization_id", "first_name", "last_name", "link_slug" ON "users" FOR EACH ROW EXECUTE FUNCTION "users_claim_link_slug"();
