ALTER TABLE "media" ADD COLUMN "uploaded_by" uuid;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "pending_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "unreferenced_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "digital_cards_logo_media_idx" ON "digital_cards" USING btree ("logo_media_id") WHERE "digital_cards"."logo_media_id" is not null;--> statement-breakpoint
CREATE INDEX "digital_cards_profile_picture_media_idx" ON "digital_cards" USING btree ("profile_picture_media_id") WHERE "digital_cards"."profile_picture_media_id" is not null;--> statement-breakpoint
CREATE INDEX "digital_cards_background_media_idx" ON "digital_cards" USING btree ("background_media_id") WHERE "digital_cards"."background_media_id" is not null;--> statement-breakpoint
CREATE INDEX "media_org_uploader_idx" ON "media" USING btree ("organization_id","uploaded_by");--> statement-breakpoint
CREATE INDEX "users_logo_media_idx" ON "users" USING btree ("logo_media_id") WHERE "users"."logo_media_id" is not null;--> statement-breakpoint
CREATE INDEX "users_profile_picture_media_idx" ON "users" USING btree ("profile_picture_media_id") WHERE "users"."profile_picture_media_id" is not null;--> statement-breakpoint
-- Images no longer referenced stop being served (issue 26 point 5, ADR 029). An upload is
-- pending (its form shows it before it is saved) until a row first references it; from then
-- on the media route serves it only while something references it. This trigger ends the
-- pending state on every write that references an image, whichever code path makes it.
CREATE FUNCTION "brandcard_media_referenced"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    "ids" := ARRAY[NEW."logo_media_id", NEW."profile_picture_media_id", NEW."background_media_id"];
  END IF;
  UPDATE "media" SET "pending_since" = NULL, "unreferenced_since" = NULL
  WHERE "organization_id" = "org" AND "id" = ANY ("ids")
    AND ("pending_since" IS NOT NULL OR "unreferenced_since" IS NOT NULL);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organizations_media_referenced" AFTER INSERT OR UPDATE OF "logo_media_id", "favicon_media_id" ON "organizations" FOR EACH ROW EXECUTE FUNCTION "brandcard_media_referenced"();--> statement-breakpoint
CREATE TRIGGER "users_media_referenced" AFTER INSERT OR UPDATE OF "logo_media_id", "profile_picture_media_id" ON "users" FOR EACH ROW EXECUTE FUNCTION "brandcard_media_referenced"();--> statement-breakpoint
CREATE TRIGGER "digital_cards_media_referenced" AFTER INSERT OR UPDATE OF "logo_media_id", "profile_picture_media_id", "background_media_id" ON "digital_cards" FOR EACH ROW EXECUTE FUNCTION "brandcard_media_referenced"();
