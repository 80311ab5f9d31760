ALTER TABLE "email_outbox" ADD COLUMN "secrets" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Emails stored before this migration carry their links' tokens (reset, set-password,
-- confirmation, invitation, unsubscribe): take them out, so no table or later backup holds a
-- usable link. An email still queued goes out with the link removed; its recipient asks again.
-- Row-level security is forced on the owner too: the platform scope lets the update see every row.
SELECT set_config('app.platform_scope', 'on', true);--> statement-breakpoint
UPDATE "email_outbox" SET
  "html" = regexp_replace(regexp_replace("html", '(token=)[A-Za-z0-9._-]+', '\1{removed-secret}', 'g'), '(/invitations/)[a-z2-7]{52}', '\1{removed-secret}', 'g'),
  "text" = regexp_replace(regexp_replace("text", '(token=)[A-Za-z0-9._-]+', '\1{removed-secret}', 'g'), '(/invitations/)[a-z2-7]{52}', '\1{removed-secret}', 'g'),
  "headers" = regexp_replace("headers"::text, '(token=)[A-Za-z0-9._-]+', '\1{removed-secret}', 'g')::jsonb
WHERE "html" ~ '(token=|/invitations/)' OR "text" ~ '(token=|/invitations/)' OR "headers"::text ~ 'token=';--> statement-breakpoint
SELECT set_config('app.platform_scope', '', true);
