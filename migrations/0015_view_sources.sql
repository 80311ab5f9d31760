CREATE TYPE "public"."view_source" AS ENUM('direct', 'qr', 'nfc', 'link', 'share', 'vcard', 'wallet', 'signature', 'background');--> statement-breakpoint
ALTER TABLE "card_view_hours" ADD COLUMN "source" "view_source" DEFAULT 'direct' NOT NULL;--> statement-breakpoint
ALTER TABLE "card_views" ADD COLUMN "source" "view_source" DEFAULT 'direct' NOT NULL;--> statement-breakpoint
ALTER TABLE "card_view_hours" DROP CONSTRAINT "card_view_hours_pk";
--> statement-breakpoint
ALTER TABLE "card_view_hours" ADD CONSTRAINT "card_view_hours_pk" PRIMARY KEY("organization_id","card_id","hour","source");--> statement-breakpoint
-- hand-written: view sources
-- card_view_hours follows card_views per source too (ADR 039): the same statement-level
-- triggers as 0009, grouped and upserted by (organization, card, hour, source) in key order.
-- Rows that were there count as direct, as the views they summed do.
CREATE OR REPLACE FUNCTION "card_view_hours_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE "card_view_hours" h SET "views" = h."views" - o."n"
    FROM (
      SELECT "organization_id", "card_id", date_trunc('hour', "viewed_at", 'UTC') AS "hour", "source", count(*)::int AS "n"
      FROM "old_views" GROUP BY 1, 2, 3, 4
    ) o
    WHERE h."organization_id" = o."organization_id" AND h."card_id" = o."card_id" AND h."hour" = o."hour" AND h."source" = o."source";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "card_view_hours" ("organization_id", "card_id", "hour", "source", "views")
    SELECT "organization_id", "card_id", date_trunc('hour', "viewed_at", 'UTC'), "source", count(*)::int
    FROM "new_views" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("organization_id", "card_id", "hour", "source")
    DO UPDATE SET "views" = "card_view_hours"."views" + excluded."views";
  END IF;
  RETURN NULL;
END
$$;
