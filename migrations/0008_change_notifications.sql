CREATE INDEX "card_views_org_visitor_idx" ON "card_views" USING btree ("organization_id","visitor_hash","viewed_at");--> statement-breakpoint
-- Change notifications for the in-process caches (ADR 021): every write that can change what a
-- public page, a tenant lookup or the platform settings show announces the organization it
-- touched on the channel `brandcard_changes` ('*' when it concerns every tenant). Each process
-- LISTENs and drops what it cached for that organization, so several app processes on one
-- database never serve a stale page. NOTIFY is delivered at commit, never for a rolled-back
-- write, and Postgres folds repeats of one payload within a transaction into one.
CREATE FUNCTION "brandcard_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "payload" text;
BEGIN
  IF TG_ARGV[0] = 'platform' THEN
    "payload" := '*';
  ELSIF TG_TABLE_NAME = 'organizations' THEN
    -- The platform's name, colours and images also brand agencies without white labelling.
    IF TG_OP = 'DELETE' THEN
      "payload" := CASE WHEN OLD."kind" = 'platform' THEN '*' ELSE OLD."id"::text END;
    ELSE
      "payload" := CASE WHEN NEW."kind" = 'platform' THEN '*' ELSE NEW."id"::text END;
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    "payload" := OLD."organization_id"::text;
  ELSE
    "payload" := NEW."organization_id"::text;
  END IF;
  PERFORM pg_notify('brandcard_changes', "payload");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "organizations_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "organizations" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();--> statement-breakpoint
CREATE TRIGGER "organization_settings_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "organization_settings" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();--> statement-breakpoint
CREATE TRIGGER "platform_settings_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "platform_settings" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"('platform');--> statement-breakpoint
CREATE TRIGGER "digital_cards_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "digital_cards" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();--> statement-breakpoint
CREATE TRIGGER "user_settings_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "user_settings" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();--> statement-breakpoint
-- Users: what a card page or a shared profile can show. Sign-in bookkeeping (last active,
-- password, onboarding step) changes often and shows nowhere public, so it announces nothing.
CREATE TRIGGER "users_notify_change" AFTER INSERT OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();--> statement-breakpoint
CREATE TRIGGER "users_notify_profile_change" AFTER UPDATE OF "organization_id", "email", "role", "status", "plan", "first_name", "last_name", "work_email", "phone_number", "company", "job_title", "website", "logo_media_id", "profile_picture_media_id", "onboarding_completed_at" ON "users" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();
