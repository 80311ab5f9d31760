CREATE TABLE "user_data_versions" (
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL,
	CONSTRAINT "user_data_versions_pkey" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "user_data_versions" ADD CONSTRAINT "user_data_versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_data_versions" ADD CONSTRAINT "user_data_versions_user_fk" FOREIGN KEY ("organization_id","user_id") REFERENCES "public"."users"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_data_versions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "user_data_versions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "user_data_versions_tenant_isolation" ON "user_data_versions" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "user_data_versions" TO brandcard_app;--> statement-breakpoint
-- The signed-in page cache (ADR 109) keys a person's stored pages by their data version: every
-- write to a table their own pages read bumps the version of each person it shows on, once per
-- statement (a batch of a thousand views is one upsert per card owner). How a row names its
-- people is the trigger's argument: its `user_id`, the user row itself (`id`), the actor of an
-- audit event, the owner of its card, or everyone in its team (the dashboard counts teammates).
-- Owners are upserted in key order, so two statements that share people lock them in the same
-- order, and announced on `brandcard_changes`. It runs as the caller, like card_view_hours_follow: the rows it writes are of the
-- caller's tenant. A deleted user's version goes with the user (the join below finds nobody).
CREATE FUNCTION "brandcard_bump_data_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "rows" text;
  "people" text;
  "owners" text := '';
BEGIN
  FOREACH "rows" IN ARRAY CASE TG_OP
    WHEN 'INSERT' THEN ARRAY['new_rows']
    WHEN 'DELETE' THEN ARRAY['old_rows']
    ELSE ARRAY['old_rows', 'new_rows'] END
  LOOP
    "people" := CASE TG_ARGV[0]
      WHEN 'user_id' THEN format('select r.organization_id, r.user_id from %I r', "rows")
      WHEN 'id' THEN format('select r.organization_id, r.id from %I r', "rows")
      WHEN 'actor_user_id' THEN format('select r.organization_id, r.actor_user_id from %I r', "rows")
      WHEN 'card_id' THEN format(
        'select c.organization_id, c.user_id from %I r join digital_cards c on c.organization_id = r.organization_id and c.id = r.card_id',
        "rows")
      WHEN 'team_id' THEN format(
        'select t.organization_id, t.user_id from %I r join team_members t on t.organization_id = r.organization_id and t.team_id = r.team_id union select r.organization_id, r.user_id from %I r',
        "rows", "rows")
    END;
    "owners" := "owners" || CASE WHEN "owners" = '' THEN '' ELSE ' union ' END || "people";
  END LOOP;
  -- Each person whose version rose is announced ('user:{organization}:{user}'): every process
  -- forgets the sessions it remembered for them (app/cache/session-cache.server.ts), so the next
  -- request reads the new version. Repeats of one payload within a transaction fold into one.
  EXECUTE format(
    'with bumped as ('
    'insert into user_data_versions (organization_id, user_id) '
    'select distinct o.organization_id, o.user_id from (%s) o (organization_id, user_id) '
    'join users u on u.organization_id = o.organization_id and u.id = o.user_id '
    'order by 1, 2 '
    'on conflict (organization_id, user_id) do update set version = user_data_versions.version + 1 '
    'returning organization_id, user_id) '
    'select count(pg_notify(''brandcard_changes'', ''user:'' || organization_id || '':'' || user_id)) from bumped',
    "owners");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "digital_cards_data_version_insert" AFTER INSERT ON "digital_cards" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "digital_cards_data_version_update" AFTER UPDATE ON "digital_cards" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "digital_cards_data_version_delete" AFTER DELETE ON "digital_cards" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "contacts_data_version_insert" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "contacts_data_version_update" AFTER UPDATE ON "contacts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "contacts_data_version_delete" AFTER DELETE ON "contacts" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "user_settings_data_version_insert" AFTER INSERT ON "user_settings" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "user_settings_data_version_update" AFTER UPDATE ON "user_settings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "user_settings_data_version_delete" AFTER DELETE ON "user_settings" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "account_deletions_data_version_insert" AFTER INSERT ON "account_deletions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "account_deletions_data_version_update" AFTER UPDATE ON "account_deletions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "account_deletions_data_version_delete" AFTER DELETE ON "account_deletions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "team_members_data_version_insert" AFTER INSERT ON "team_members" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('team_id');
--> statement-breakpoint
CREATE TRIGGER "team_members_data_version_update" AFTER UPDATE ON "team_members" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('team_id');
--> statement-breakpoint
CREATE TRIGGER "team_members_data_version_delete" AFTER DELETE ON "team_members" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('team_id');
--> statement-breakpoint
CREATE TRIGGER "users_data_version_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('id');
--> statement-breakpoint
CREATE TRIGGER "users_data_version_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('id');
--> statement-breakpoint
CREATE TRIGGER "users_data_version_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('id');
--> statement-breakpoint
CREATE TRIGGER "audit_events_data_version_insert" AFTER INSERT ON "audit_events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('actor_user_id');
--> statement-breakpoint
CREATE TRIGGER "audit_events_data_version_update" AFTER UPDATE ON "audit_events" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('actor_user_id');
--> statement-breakpoint
CREATE TRIGGER "audit_events_data_version_delete" AFTER DELETE ON "audit_events" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('actor_user_id');
--> statement-breakpoint
CREATE TRIGGER "card_views_data_version_insert" AFTER INSERT ON "card_views" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_views_data_version_update" AFTER UPDATE ON "card_views" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_views_data_version_delete" AFTER DELETE ON "card_views" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_view_hours_data_version_insert" AFTER INSERT ON "card_view_hours" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_view_hours_data_version_update" AFTER UPDATE ON "card_view_hours" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_view_hours_data_version_delete" AFTER DELETE ON "card_view_hours" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_followers_data_version_insert" AFTER INSERT ON "card_followers" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_followers_data_version_update" AFTER UPDATE ON "card_followers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_followers_data_version_delete" AFTER DELETE ON "card_followers" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_links_data_version_insert" AFTER INSERT ON "card_links" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_links_data_version_update" AFTER UPDATE ON "card_links" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_links_data_version_delete" AFTER DELETE ON "card_links" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_slugs_data_version_insert" AFTER INSERT ON "card_slugs" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_slugs_data_version_update" AFTER UPDATE ON "card_slugs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "card_slugs_data_version_delete" AFTER DELETE ON "card_slugs" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('card_id');
--> statement-breakpoint
CREATE TRIGGER "sessions_data_version_insert" AFTER INSERT ON "sessions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "sessions_data_version_update" AFTER UPDATE ON "sessions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
--> statement-breakpoint
CREATE TRIGGER "sessions_data_version_delete" AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "brandcard_bump_data_versions"('user_id');
