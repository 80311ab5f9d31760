-- Issue 41 point 6 (ADR 083): a card's cover image and its video (provider and id, both or
-- neither). The columns are the card's own: digital_cards' row-level security covers them.
CREATE TYPE "public"."video_provider" AS ENUM('youtube', 'vimeo');--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "cover_media_id" uuid;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "video_provider" "video_provider";--> statement-breakpoint
ALTER TABLE "digital_cards" ADD COLUMN "video_id" text;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD CONSTRAINT "digital_cards_cover_media_fk" FOREIGN KEY ("organization_id","cover_media_id") REFERENCES "public"."media"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "digital_cards_cover_media_idx" ON "digital_cards" USING btree ("cover_media_id") WHERE "digital_cards"."cover_media_id" is not null;--> statement-breakpoint
ALTER TABLE "digital_cards" ADD CONSTRAINT "digital_cards_video_whole" CHECK (("digital_cards"."video_provider" is null) = ("digital_cards"."video_id" is null));--> statement-breakpoint
-- The media trigger of migration 0014 with the cover image: writing it ends its upload's
-- pending state, as the card's other images do.
CREATE OR REPLACE FUNCTION "brandcard_media_referenced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "org" uuid;
  "ids" uuid[];
BEGIN
  IF TG_TABLE_NAME = 'organizations' THEN
    "org" := NEW."id";
    "ids" := ARRAY[NEW."logo_media_id", NEW."favicon_media_id"];
  ELSIF TG_TABLE_NAME = 'users' THEN
    "org" := NEW."organization_id";
    "ids" := ARRAY[NEW."logo_media_id", NEW."profile_picture_media_id"];
  ELSE
    "org" := NEW."organization_id";
    "ids" := ARRAY[NEW."logo_media_id", NEW."profile_picture_media_id", NEW."background_media_id", NEW."cover_media_id"];
  END IF;
  UPDATE "media" SET "pending_since" = NULL, "unreferenced_since" = NULL
  WHERE "organization_id" = "org" AND "id" = ANY ("ids")
    AND ("pending_since" IS NOT NULL OR "unreferenced_since" IS NOT NULL);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "digital_cards_media_referenced" ON "digital_cards";--> statement-breakpoint
CREATE TRIGGER "digital_cards_media_referenced" AFTER INSERT OR UPDATE OF "logo_media_id", "profile_picture_media_id", "background_media_id", "cover_media_id" ON "digital_cards" FOR EACH ROW EXECUTE FUNCTION "brandcard_media_referenced"();
