-- brandcard_bump_data_versions (0055) with static statements instead of one EXECUTE: PL/pgSQL
-- keeps a static statement's plan for the session, where EXECUTE parsed and planned the upsert
-- again at every write to the thirteen tables that bump versions (audit events, users, cards,
-- views...). On PGlite the trigger took about 1.1 ms of CPU a statement against 0.28 ms static;
-- on Postgres the server's planning goes the same way (ADR 126). What it does is unchanged: the
-- people each written row names (by the trigger's argument), old rows and new, each bumped once
-- in key order and announced on `brandcard_changes`.
CREATE OR REPLACE FUNCTION "brandcard_bump_data_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "found_orgs" uuid[];
  "found_people" uuid[];
  "org_ids" uuid[] := '{}';
  "person_ids" uuid[] := '{}';
  "announced" bigint;
BEGIN
  -- The transition tables this statement has: old_rows unless it inserted, new_rows unless it
  -- deleted. Each branch names only a table its trigger declares.
  IF TG_OP <> 'INSERT' THEN
    CASE TG_ARGV[0]
      WHEN 'user_id' THEN
        SELECT array_agg(r.organization_id), array_agg(r.user_id) INTO "found_orgs", "found_people"
          FROM old_rows r;
      WHEN 'id' THEN
        SELECT array_agg(r.organization_id), array_agg(r.id) INTO "found_orgs", "found_people"
          FROM old_rows r;
      WHEN 'actor_user_id' THEN
        SELECT array_agg(r.organization_id), array_agg(r.actor_user_id) INTO "found_orgs", "found_people"
          FROM old_rows r;
      WHEN 'card_id' THEN
        SELECT array_agg(c.organization_id), array_agg(c.user_id) INTO "found_orgs", "found_people"
          FROM old_rows r JOIN digital_cards c ON c.organization_id = r.organization_id AND c.id = r.card_id;
      WHEN 'team_id' THEN
        SELECT array_agg(p.organization_id), array_agg(p.user_id) INTO "found_orgs", "found_people"
          FROM (SELECT t.organization_id, t.user_id FROM old_rows r
                  JOIN team_members t ON t.organization_id = r.organization_id AND t.team_id = r.team_id
                UNION SELECT r.organization_id, r.user_id FROM old_rows r) p;
    END CASE;
    "org_ids" := "org_ids" || coalesce("found_orgs", '{}');
    "person_ids" := "person_ids" || coalesce("found_people", '{}');
  END IF;
  IF TG_OP <> 'DELETE' THEN
    CASE TG_ARGV[0]
      WHEN 'user_id' THEN
        SELECT array_agg(r.organization_id), array_agg(r.user_id) INTO "found_orgs", "found_people"
          FROM new_rows r;
      WHEN 'id' THEN
        SELECT array_agg(r.organization_id), array_agg(r.id) INTO "found_orgs", "found_people"
          FROM new_rows r;
      WHEN 'actor_user_id' THEN
        SELECT array_agg(r.organization_id), array_agg(r.actor_user_id) INTO "found_orgs", "found_people"
          FROM new_rows r;
      WHEN 'card_id' THEN
        SELECT array_agg(c.organization_id), array_agg(c.user_id) INTO "found_orgs", "found_people"
          FROM new_rows r JOIN digital_cards c ON c.organization_id = r.organization_id AND c.id = r.card_id;
      WHEN 'team_id' THEN
        SELECT array_agg(p.organization_id), array_agg(p.user_id) INTO "found_orgs", "found_people"
          FROM (SELECT t.organization_id, t.user_id FROM new_rows r
                  JOIN team_members t ON t.organization_id = r.organization_id AND t.team_id = r.team_id
                UNION SELECT r.organization_id, r.user_id FROM new_rows r) p;
    END CASE;
    "org_ids" := "org_ids" || coalesce("found_orgs", '{}');
    "person_ids" := "person_ids" || coalesce("found_people", '{}');
  END IF;
  -- Each person whose version rose is announced ('user:{organization}:{user}'): every process
  -- forgets the sessions it remembered for them (app/cache/session-cache.server.ts), so the next
  -- request reads the new version. Repeats of one payload within a transaction fold into one.
  WITH "bumped" AS (
    INSERT INTO user_data_versions (organization_id, user_id)
    SELECT DISTINCT o.organization_id, o.user_id
      FROM unnest("org_ids", "person_ids") o (organization_id, user_id)
      JOIN users u ON u.organization_id = o.organization_id AND u.id = o.user_id
     ORDER BY 1, 2
    ON CONFLICT (organization_id, user_id) DO UPDATE SET version = user_data_versions.version + 1
    RETURNING organization_id, user_id
  )
  SELECT count(pg_notify('brandcard_changes', 'user:' || "bumped".organization_id || ':' || "bumped".user_id))
    INTO "announced" FROM "bumped";
  RETURN NULL;
END
$$;
