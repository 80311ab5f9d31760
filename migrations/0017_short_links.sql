CREATE TABLE "card_slugs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "card_slugs" ADD CONSTRAINT "card_slugs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_slugs" ADD CONSTRAINT "card_slugs_card_fk" FOREIGN KEY ("organization_id","card_id") REFERENCES "public"."digital_cards"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_slugs_org_slug_key" ON "card_slugs" USING btree ("organization_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "card_slugs_one_current_per_card" ON "card_slugs" USING btree ("organization_id","card_id") WHERE "card_slugs"."retired_at" is null;--> statement-breakpoint
CREATE INDEX "card_slugs_org_card_idx" ON "card_slugs" USING btree ("organization_id","card_id");--> statement-breakpoint
-- hand-written: short links
ALTER TABLE "card_slugs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "card_slugs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "card_slugs_tenant_isolation" ON "card_slugs" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "card_slugs" TO brandcard_app;--> statement-breakpoint
-- A changed slug changes what `/c/{old}` answers (a redirect now): cached pages of the
-- organization drop, as for any card edit (ADR 021).
CREATE TRIGGER "card_slugs_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "card_slugs" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();--> statement-breakpoint
-- Every card made so far gets a slug from its name, as app/validation/card-slug.ts makes one for
-- a new card: "{first}-{last}" in lowercase letters and digits, cut to 16 characters, then
-- "-2", "-3", … while taken in its organization, oldest card first. A name without both parts
-- (a single word could be a reserved path) starts from "my-card". The owner reads every
-- tenant's cards (row-level security is forced for a non-superuser owner too), then hands the
-- setting back.
SELECT set_config('app.platform_scope', 'on', true);--> statement-breakpoint
DO $$
DECLARE
  "c" record;
  "base" text;
  "candidate" text;
  "n" int;
BEGIN
  FOR "c" IN
    SELECT "id", "organization_id", "first_name", "last_name" FROM "digital_cards"
    WHERE NOT EXISTS (
      SELECT 1 FROM "card_slugs" s
      WHERE s."organization_id" = "digital_cards"."organization_id" AND s."card_id" = "digital_cards"."id"
    )
    ORDER BY "created_at", "id"
  LOOP
    "base" := btrim(regexp_replace(lower(
      translate("c"."first_name", 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿ', 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyy')
      || ' ' ||
      translate("c"."last_name", 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿ', 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyy')
    ), '[^a-z0-9]+', '-', 'g'), '-');
    "base" := rtrim(left("base", 16), '-');
    IF length("base") < 3 OR position('-' IN "base") = 0 THEN
      "base" := 'my-card';
    END IF;
    "n" := 1;
    LOOP
      "candidate" := CASE WHEN "n" = 1 THEN "base"
        ELSE rtrim(left("base", 19 - length('-' || "n")), '-') || '-' || "n" END;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "card_slugs" WHERE "organization_id" = "c"."organization_id" AND "slug" = "candidate"
      );
      "n" := "n" + 1;
    END LOOP;
    INSERT INTO "card_slugs" ("organization_id", "card_id", "slug") VALUES ("c"."organization_id", "c"."id", "candidate");
  END LOOP;
END
$$;--> statement-breakpoint
SELECT set_config('app.platform_scope', '', true);
